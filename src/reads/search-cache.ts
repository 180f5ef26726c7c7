import { type QueryExecutorProvider, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';

/**
 * Searched pages from the search's matches kept in memory (issue 42), exact by the store's catalog version.
 *
 * A searched page costs PostgreSQL every match of the search, whatever the page: each is found, rechecked on its
 * row (trigram indexes are lossy) and sorted, because the exact total needs them all and the page is a top-N of
 * them (list.ts, runMatchedList). A search box or a sync job pages through the same search: the matches in their
 * order are the same for every page while no product changes. So the first read keeps them, in order with their
 * sort keys, under the version it read with them (`version`: migrations/0131, a per-store sum that grows with
 * every committed change to a product), and a later page is one statement that reads the version again with the
 * page's rows, looked up by id. The page is served only when that version is the kept one: the same sum means
 * the same products in that statement's snapshot, so the page, its total and its cursor are what the full search
 * would give. Else the search runs in full (and keeps its new matches).
 *
 * Bounded: a search with more than MAX_MATCHES matches is not kept, and the oldest searches go once the kept
 * matches pass MAX_KEPT (a few MB).
 */

export const MAX_MATCHES = 10_000;
const MAX_KEPT = 100_000;

/** A search's matches in list order: ids with their sort keys' text, as read with the catalog `version`. */
interface KeptMatches {
  version: string;
  ids: string[];
  keys: (string | null)[];
}

/** The searches kept by one app (src/app.ts makes it): by store, search term and sort. */
export class SearchCache {
  private readonly kept = new Map<string, KeptMatches>();
  private size = 0;

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
    if (matches.ids.length > MAX_MATCHES) return;
    this.kept.set(key, matches);
    this.size += matches.ids.length;
    for (const [oldest] of this.kept) {
      if (this.size <= MAX_KEPT) break;
      this.drop(oldest);
    }
  }

  /** how many matches are kept, in all */
  get keptMatches(): number {
    return this.size;
  }

  private drop(key: string): void {
    const found = this.kept.get(key);
    if (!found) return;
    this.kept.delete(key);
    this.size -= found.ids.length;
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

/**
 * The page (`take` rows from `offset`) from the kept matches, in one statement that reads the version with the
 * rows; undefined when nothing is kept, the page is past the kept matches, or the catalog changed since.
 */
export async function keptPage<DB, TB extends keyof DB, O>(
  db: QueryExecutorProvider,
  kept: KeptSearches,
  key: string,
  row: (id: RawBuilder<unknown>) => SelectQueryBuilder<DB, TB, O>,
  offset: number,
  take: number,
): Promise<SearchedPage<O> | undefined> {
  const matches = kept.cache.get(key);
  const ids = matches?.ids.slice(offset, offset + take) ?? [];
  if (!matches || ids.length === 0) return undefined;
  const { rows } = await sql<O & { list_version: string; list_position: string }>`SELECT list_rows.*, ${kept.version} AS list_version,
      list_page.list_position
    FROM unnest(${ids}::text[]) WITH ORDINALITY AS list_page (match_id, list_position)
    CROSS JOIN LATERAL ${row(sql`list_page.match_id`)} AS list_rows
    ORDER BY list_page.list_position`.execute(db);
  // a product gone since changed the version too; the length check only guards the order of what follows
  if (rows.length !== ids.length || rows.some((found) => found.list_version !== matches.version)) return undefined;
  const page = rows.map(({ list_version, list_position, ...found }, index) => ({
    ...(found as unknown as O),
    list_key: matches.keys[offset + index],
    list_id: ids[index],
  }));
  return { rows: page, count: matches.ids.length };
}

/**
 * The search in full, in one statement: its matches in list order with their sort keys and the version (all of
 * them when there are at most MAX_MATCHES, else only the page's), and the page's rows beside the matches of the
 * page (the others' row columns null). Keeps the matches; returns the page, or undefined when the page is past
 * the end of a search too large to keep (the caller then counts it the usual way).
 */
export async function searchAndKeep<DB, TB extends keyof DB, O>(
  db: QueryExecutorProvider,
  kept: KeptSearches,
  key: string,
  matches: SelectQueryBuilder<DB, TB, unknown>,
  row: (id: RawBuilder<unknown>) => SelectQueryBuilder<DB, TB, O>,
  direction: RawBuilder<unknown>,
  offset: number,
  take: number,
): Promise<SearchedPage<O> | undefined> {
  const inPage = sql<SqlBool>`(list_ordered.list_position > ${offset} AND list_ordered.list_position <= ${offset + take})`;
  const { rows } = await sql<O & KeyedMatch>`WITH list_matches AS MATERIALIZED (${matches}),
    list_ordered AS (SELECT match_id, match_key,
      row_number() OVER (ORDER BY match_key ${direction}, match_id ${direction}) AS list_position FROM list_matches),
    list_total AS (SELECT count(*) AS n FROM list_matches)
    SELECT list_rows.*, list_ordered.match_key::text AS list_key, list_ordered.match_id AS list_id,
      list_ordered.list_position::int AS list_position, list_total.n::int AS list_total, ${kept.version} AS list_version
    FROM list_total CROSS JOIN list_ordered
      LEFT JOIN LATERAL ${row(sql`CASE WHEN ${inPage} THEN list_ordered.match_id END`)} AS list_rows ON true
    WHERE list_total.n <= ${MAX_MATCHES} OR ${inPage}
    ORDER BY list_ordered.list_position`.execute(db);
  const total = rows[0]?.list_total ?? 0;
  if (rows.length > 0 && rows.length === total) {
    kept.cache.set(key, {
      version: rows[0].list_version,
      ids: rows.map((found) => found.list_id),
      keys: rows.map((found) => found.list_key),
    });
  }
  if (rows.length === 0 && offset > 0) return undefined;
  const page = rows
    .filter((found) => found.list_position > offset && found.list_position <= offset + take)
    .map(({ list_version, list_position, list_total, ...found }) => found as unknown as PageRow<O>);
  return { rows: page, count: total };
}

interface KeyedMatch {
  list_key: string | null;
  list_id: string;
  list_position: number;
  list_total: number;
  list_version: string;
}
