import { type QueryExecutorProvider, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';

/**
 * Searched pages from the search's matches kept in memory (issue 42), exact by the store's catalog version.
 *
 * A searched page costs PostgreSQL every match of the search, whatever the page: each is found, rechecked on its
 * row (trigram indexes are lossy) and sorted, because the exact total needs them all and the page is a top-N of
 * them (list-matched.ts, runMatchedList). A search box or a sync job pages through the same search: the matches in their
 * order are the same for every page while no product changes. So the first read keeps them, their ids in order,
 * under the version it read with them (`version`: migrations/0131, a per-store sum that grows with
 * every committed change to a product), and a later page is one statement that reads the version again with the
 * page's rows, looked up by id. The page is served only when that version is the kept one: the same sum means
 * the same products in that statement's snapshot, so the page, its total and its cursor are what the full search
 * would give. Else the search runs in full (and keeps its new matches).
 *
 * Compact, so a wide search of a large catalog is kept too (issue 42: ~80,000 matches at a million products): only
 * the ids are kept, 12 bytes each (the API's ids are 24 hex digits), arriving from PostgreSQL as one string with
 * the page's rows; a kept page reads its rows' sort keys with the rows. Bounded by bytes: a search of more than
 * MAX_MATCHES matches is not kept, and the oldest searches go once the kept ids pass MAX_KEPT_BYTES (8 MiB: the six
 * orders of a MAX_MATCHES search fit).
 */

export const MAX_MATCHES = 100_000;
/** bytes of one kept id: 24 hex digits */
const ID_BYTES = 12;
export const MAX_KEPT_BYTES = 8 * 1024 * 1024;

/** A search's matches in list order: their ids, ID_BYTES each, as read with the catalog `version`. */
interface KeptMatches {
  version: string;
  ids: Buffer;
}

/** How many matches `matches` holds. */
const countOf = (matches: KeptMatches) => matches.ids.length / ID_BYTES;

/** The ids of matches `from` to `to` (exclusive) as text. */
function idsOf(matches: KeptMatches, from: number, to: number): string[] {
  const hex = matches.ids.toString('hex', from * ID_BYTES, Math.min(to, countOf(matches)) * ID_BYTES);
  return Array.from({ length: hex.length / (2 * ID_BYTES) }, (_, k) => hex.slice(k * 2 * ID_BYTES, (k + 1) * 2 * ID_BYTES));
}

/** `count` ids concatenated in list order, packed; undefined when any is not 24 lowercase hex digits (then nothing is kept). */
export function packIds(concatenated: string, count: number): Buffer | undefined {
  if (concatenated.length !== count * 2 * ID_BYTES || !/^[0-9a-f]*$/.test(concatenated)) return undefined;
  return Buffer.from(concatenated, 'hex');
}

/** The searches kept by one app (src/app.ts makes it): by store, search term and sort. */
export class SearchCache {
  private readonly kept = new Map<string, KeptMatches>();
  private bytes = 0;
  /** the full searches running, by key: one at a time per search and order (keptOrSearchedPage) */
  readonly searching = new Map<string, Promise<unknown>>();

  get(key: string): KeptMatches | undefined {
    const found = this.kept.get(key);
    if (found) {
      // the newest use goes last: the first entries are the ones to drop
      this.kept.delete(key);
      this.kept.set(key, found);
    }
    return found;
  }

  set(key: string, matches: KeptMatches): void {
    this.drop(key);
    if (countOf(matches) > MAX_MATCHES) return;
    this.kept.set(key, matches);
    this.bytes += matches.ids.length;
    for (const [oldest] of this.kept) {
      if (this.bytes <= MAX_KEPT_BYTES) break;
      this.drop(oldest);
    }
  }

  /** the bytes of the kept ids, in all */
  get keptBytes(): number {
    return this.bytes;
  }

  private drop(key: string): void {
    const found = this.kept.get(key);
    if (!found) return;
    this.kept.delete(key);
    this.bytes -= found.ids.length;
  }
}

/** What a searched list needs to be read from kept matches: the cache, and its store's catalog version as SQL. */
export interface KeptSearches {
  cache: SearchCache;
  /** a scalar expression, the store's catalog version as text (read in the page's own statement) */
  version: RawBuilder<string>;
}

/** A page's rows as runMatchedList returns them: the base's columns, the sort key's text and the id. */
type PageRow<O> = O & { list_key: string | null; list_id: string };

interface SearchedPage<O> {
  rows: PageRow<O>[];
  count: number;
}

/** The kept key of a search: its store, its term and its order (the page and the limit are not part of it). */
export const searchKey = (storeId: string, search: string, sort: string) => JSON.stringify([storeId, search, sort]);

/** A match's row by its id, scoped to the store: the base's columns and the sort key's text as `list_key` (list-kept.ts). */
type RowById<DB, TB extends keyof DB, O> = (id: RawBuilder<unknown>) => SelectQueryBuilder<DB, TB, O>;

/** One search in one order, as keptOrSearchedPage reads it: where, under which key, its matches and their rows. */
export interface KeptSearch<DB, TB extends keyof DB, O> {
  db: QueryExecutorProvider;
  kept: KeptSearches;
  key: string;
  /** every match's id and sort key (`match_id`, `match_key`) */
  matches: SelectQueryBuilder<DB, TB, unknown>;
  row: RowById<DB, TB, O>;
  direction: RawBuilder<unknown>;
}

/**
 * The page (`take` rows from `offset`) from the kept matches, in one statement that reads the version with the
 * rows (and their sort keys); undefined when nothing is kept or the catalog changed since.
 */
export async function keptPage<DB, TB extends keyof DB, O>(
  db: QueryExecutorProvider,
  kept: KeptSearches,
  key: string,
  row: RowById<DB, TB, O>,
  offset: number,
  take: number,
): Promise<SearchedPage<O> | undefined> {
  const matches = kept.cache.get(key);
  if (!matches) return undefined;
  const ids = idsOf(matches, offset, offset + take);
  if (ids.length === 0) return pastTheEnd(db, kept, matches);
  const { rows } = await sql<PageRow<O> & { list_version: string; list_position: string }>`SELECT list_rows.*,
      ${kept.version} AS list_version, list_page.list_position
    FROM unnest(${ids}::text[]) WITH ORDINALITY AS list_page (match_id, list_position)
    CROSS JOIN LATERAL ${row(sql`list_page.match_id`)} AS list_rows
    ORDER BY list_page.list_position`.execute(db);
  // a product gone since changed the version too; the length check only guards the order of what follows
  if (rows.length !== ids.length || rows.some((found) => found.list_version !== matches.version)) return undefined;
  const page = rows.map(({ list_version, list_position, ...found }, index) => ({ ...found, list_id: ids[index] }) as PageRow<O>);
  return { rows: page, count: countOf(matches) };
}

/**
 * A page past the kept matches (a sync job's last request, a small store's page 5 of a search of 80): empty, with
 * the kept total, when the version read now is the kept one. It ran the search in full twice before: once to find
 * no row, once more to count (and the trigram index's lists hold every store's matches, not only this store's).
 */
async function pastTheEnd<O>(db: QueryExecutorProvider, kept: KeptSearches, matches: KeptMatches): Promise<SearchedPage<O> | undefined> {
  const { rows } = await sql<{ list_version: string }>`SELECT ${kept.version} AS list_version`.execute(db);
  return rows[0]?.list_version === matches.version ? { rows: [], count: countOf(matches) } : undefined;
}

/**
 * The page from the kept matches, else from the search in full, kept. One full search per search and order at a
 * time: the reads that miss while it runs wait for it, then read their page from what it kept (each checks the
 * version in its own statement, so the wait changes no answer). Twenty connections' first pages of a wide search
 * at a million products each received and parsed their own ~2 MB of ids at once: the peak RSS of issue 42. A miss
 * after the wait (the search is not kept: past MAX_MATCHES, or the catalog moved) runs its own search.
 */
export async function keptOrSearchedPage<DB, TB extends keyof DB, O>(
  search: KeptSearch<DB, TB, O>,
  page: { offset: number; take: number },
): Promise<SearchedPage<O>> {
  const { db, kept, key, row } = search;
  const { offset, take } = page;
  const fromKept = await keptPage(db, kept, key, row, offset, take);
  if (fromKept) return fromKept;
  const inFull = () => searchAndKeep(search, offset, take);
  const running = kept.cache.searching.get(key);
  if (running) {
    await running.catch(() => undefined);
    return (await keptPage(db, kept, key, row, offset, take)) ?? inFull();
  }
  const searched = inFull();
  kept.cache.searching.set(key, searched);
  const ended = () => {
    if (kept.cache.searching.get(key) === searched) kept.cache.searching.delete(key);
  };
  searched.then(ended, ended);
  return searched;
}

/**
 * The search in full, in one statement: its matches in list order (a window over every match), their count, the
 * version, and the page's rows; with the page's first row, when there are at most MAX_MATCHES, every match's id
 * in list order as one string (an InitPlan, run once). Keeps the matches; returns the page. A page past the end
 * is one row of the total alone (the left join), so it is counted and kept by the same statement.
 */
export async function searchAndKeep<DB, TB extends keyof DB, O>(
  { db, kept, key, matches, row, direction }: KeptSearch<DB, TB, O>,
  offset: number,
  take: number,
): Promise<SearchedPage<O>> {
  const { rows } = await sql<PageRow<O> & KeyedMatch>`WITH list_matches AS MATERIALIZED (${matches}),
    list_ordered AS MATERIALIZED (SELECT match_id,
      row_number() OVER (ORDER BY match_key ${direction}, match_id ${direction}) AS list_position FROM list_matches),
    list_total AS (SELECT count(*) AS n FROM list_matches)
    SELECT list_rows.*, list_ordered.match_id AS list_id, list_ordered.list_position::int AS list_position,
      list_total.n::int AS list_total, ${kept.version} AS list_version,
      CASE WHEN coalesce(list_ordered.list_position, ${offset + 1}) = ${offset + 1} AND list_total.n <= ${MAX_MATCHES}
        THEN (SELECT coalesce(string_agg(match_id, '' ORDER BY list_position), '') FROM list_ordered
          HAVING every(octet_length(match_id) = 24) IS NOT FALSE) END AS list_ids
    FROM list_total LEFT JOIN (list_ordered CROSS JOIN LATERAL ${row(sql`list_ordered.match_id`)} AS list_rows)
      ON list_ordered.list_position > ${offset} AND list_ordered.list_position <= ${offset + take}
    ORDER BY list_ordered.list_position`.execute(db);
  const { list_total: total, list_version: version, list_ids: all } = rows[0];
  const ids = all === null ? undefined : packIds(all, total);
  if (ids) kept.cache.set(key, { version, ids });
  // past the end (or no match): the one row carries the total alone
  const found = rows[0].list_id === null ? [] : rows;
  const page = found.map(({ list_version, list_position, list_total, list_ids, ...match }) => match as unknown as PageRow<O>);
  return { rows: page, count: total };
}

interface KeyedMatch {
  list_id: string;
  list_position: number;
  list_total: number;
  list_version: string;
  list_ids: string | null;
}
