import { type QueryExecutorProvider, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { type Keyset, type Position, rowsAfter } from './list-cursor.js';

/**
 * Deep pages of an unfiltered list started from page anchors kept in memory (issue 42), exact by the store's
 * catalog version.
 *
 * A page by number skips every row before it (PostgreSQL's OFFSET over the sort index: ~50,000 index entries for
 * page 2,000 of 25, 8.6 ms of PostgreSQL at 100,000 products); far-end.ts halves that worst case, no more. The
 * anchors of a list in one sort are the sort key and id of every `every`th row (1,000 by default), read by one
 * index-only walk of the list together with the store's catalog version and its total (migrations/0131: a
 * per-store sum that grows with every committed change to a product). Page N then starts after the nearest
 * anchor before it: a keyset condition "after this row" (list-cursor.ts, as a cursor's page) and an OFFSET below
 * `every`, in one statement that reads the version again with the page's rows. The page is served only when that
 * version is the anchors' own: the same sum means the same products in that statement's snapshot, so the anchor
 * is still the row at its position and the page is the one OFFSET gives. Else it is read the usual way.
 *
 * One walk serves both directions: the order is total (key, then id; PostgreSQL's default null placement is its
 * own mirror, far-end.ts), so descending, the anchor at ascending position p is at `total - 1 - p`.
 *
 * A write storm (a sync job changing products every few ms) must not turn every deep page into a walk of the
 * list: stale anchors are walked again only once two stale reads in a row found the same version (the catalog
 * held still between them). Until then a deep page costs one short statement more than without anchors.
 *
 * Bounded: the anchors of all lists together stay under `maxBytes` (estimated), the least recently used dropped.
 */

/** One anchor every this many rows: a deep page skips fewer index entries than page 41 of 25 does (1,000). */
export const ANCHOR_EVERY = 1_000;
/** Shallower pages walk from the start: the near end's skip is cheaper than an anchor's keyset (as far-end.ts). */
export const ANCHORED_FROM_OFFSET = 2_500;
/** ~4 MB: the anchors of a thousand lists of 10,000 rows, or of a million-product store's sorts several times over. */
const MAX_BYTES = 4_000_000;

/** A list's anchors: `positions[i]` is the row at ascending position `(i + 1) × every - 1`, read under `version`. */
export interface Anchors {
  version: string;
  total: number;
  /** the rows whose sort key is null: the last ones ascending, the first ones descending */
  nulls: number;
  positions: Position[];
}

/** Where an anchored page starts: after this row, skipping `skip` more (fewer than `every`). */
export interface AnchorStart {
  after: Position;
  skip: number;
}

interface Entry {
  anchors: Anchors;
  bytes: number;
  /** the version a read found these anchors stale under: a second stale read finding it again walks the list again */
  staleAt?: string;
}

/** The anchors kept by one app (src/products/products.routes.ts makes it): by store, list and sort key. */
export class PageAnchors {
  private readonly entries = new Map<string, Entry>();
  private readonly walks = new Map<string, Promise<Anchors | undefined>>();
  private bytes = 0;

  constructor(
    readonly every = ANCHOR_EVERY,
    readonly from = ANCHORED_FROM_OFFSET,
    private readonly maxBytes = MAX_BYTES,
  ) {}

  get(key: string): Anchors | undefined {
    const found = this.entries.get(key);
    if (found) {
      // the newest use goes last: the first entries are the ones to drop
      this.entries.delete(key);
      this.entries.set(key, found);
    }
    return found?.anchors;
  }

  /** The list walked for its anchors, one walk per key at a time (the requests arriving meanwhile wait for it). */
  walk(key: string, read: () => Promise<Anchors | undefined>): Promise<Anchors | undefined> {
    const running = this.walks.get(key);
    if (running) return running;
    const walking = read()
      .then((anchors) => {
        if (anchors) this.set(key, anchors);
        return anchors;
      })
      .finally(() => this.walks.delete(key));
    this.walks.set(key, walking);
    return walking;
  }

  /** A read found the anchors stale under `version`: true when the previous stale read found the same one. */
  staleTwice(key: string, version: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return true;
    const twice = entry.staleAt === version;
    entry.staleAt = version;
    return twice;
  }

  /** the estimated bytes of every kept anchor */
  get keptBytes(): number {
    return this.bytes;
  }

  private set(key: string, anchors: Anchors): void {
    this.drop(key);
    const bytes = bytesOf(anchors);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { anchors, bytes });
    this.bytes += bytes;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  private drop(key: string): void {
    const found = this.entries.get(key);
    if (!found) return;
    this.entries.delete(key);
    this.bytes -= found.bytes;
  }
}

// a string's characters at two bytes, and ~100 bytes of objects and pointers per anchor
const bytesOf = (anchors: Anchors) => anchors.positions.reduce((sum, { key, id }) => sum + 2 * ((key?.length ?? 0) + id.length) + 100, 200);

/**
 * The nearest anchor before the row at `offset` (in the list's direction) and how many rows after it to skip;
 * null: none, or one whose "rows after" the sort index cannot answer as one range. Those are the rows after a
 * non-null key followed by the nulls (ascending: `(key, id) > (…) OR key IS NULL`, a filter over the whole index
 * from the store's first row: 37 ms instead of 0.5 at 100,000 products) and, descending, the rows after a null key
 * (the rest of the nulls, then every value): pages that reach the nulls are read the usual way.
 */
export function anchorStart(anchors: Anchors, offset: number, take: number, descending: boolean, every: number): AnchorStart | null {
  const { total, nulls, positions } = anchors;
  if (offset >= total || positions.length === 0) return null;
  // ascending, anchor i (from 1) is at position i × every - 1; descending, at total - i × every
  const i = descending ? Math.ceil((total - offset + 1) / every) : Math.min(Math.floor(offset / every), positions.length);
  if (i < 1 || i > positions.length) return null;
  const after = positions[i - 1];
  const intoNulls = after.key !== null && !descending && Math.min(offset + take, total) > total - nulls;
  if (intoNulls || (after.key === null && descending)) return null;
  const at = descending ? total - i * every : i * every - 1;
  return { after, skip: offset - at - 1 };
}

/** What the anchors of a list need: the cache, and its store's catalog version and the list's total as SQL. */
export interface AnchoredPages {
  cache: PageAnchors;
  /** a scalar expression, the store's catalog version as text (read with the anchors and with each page) */
  version: RawBuilder<string>;
}

/**
 * The rows of a deep page read from its anchor; undefined when it must be read the usual way (no anchor before
 * it, the catalog changed since and is still changing, or nothing came back to carry the version).
 * `read` runs the page's statement from a start, its rows carrying the version it read.
 */
export async function anchoredRows<R extends { list_version: string }>(
  cache: PageAnchors,
  key: string,
  offset: number,
  take: number,
  descending: boolean,
  walk: () => Promise<Anchors | undefined>,
  read: (start: AnchorStart) => Promise<R[]>,
): Promise<R[] | undefined> {
  let anchors = cache.get(key) ?? (await cache.walk(key, walk));
  for (let tries = 0; anchors && tries < 2; tries++) {
    const start = anchorStart(anchors, offset, take, descending, cache.every);
    if (!start) return undefined;
    const rows = await read(start);
    const version = rows[0]?.list_version;
    if (version === undefined) return undefined;
    if (version === anchors.version) return rows;
    if (!cache.staleTwice(key, version)) return undefined;
    anchors = await cache.walk(key, walk);
  }
  return undefined;
}

/**
 * The anchors of `base` (a list scoped to its store, without filters) in ascending order of `key`, then `id`: one
 * walk of its sort index, with the catalog version and the list's `total` read in the same snapshot.
 */
export async function walkAnchors<DB, TB extends keyof DB>(
  db: QueryExecutorProvider,
  base: SelectQueryBuilder<DB, TB, unknown>,
  order: { key: RawBuilder<unknown>; id: RawBuilder<unknown> },
  counted: { version: RawBuilder<string>; total: RawBuilder<number> },
  every: number,
): Promise<Anchors | undefined> {
  const walked = base.clearSelect().select([
    // as text in the aggregate only: the 1 row in `every` kept (a cursor's text of its key, list-cursor.ts)
    sql`${order.key}`.as('anchor_key'),
    sql`${order.id}`.as('anchor_id'),
    sql<number>`row_number() OVER (ORDER BY ${order.key} ASC, ${order.id} ASC)`.as('anchor_n'),
  ]);
  const anchor = sql`anchor_n % ${every} = 0`;
  const { rows } = await sql<WalkedAnchors>`SELECT ${counted.version} AS version, ${counted.total} AS total,
      (count(*) FILTER (WHERE anchor_key IS NULL))::int AS nulls,
      array_agg(anchor_key::text ORDER BY anchor_n) FILTER (WHERE ${anchor}) AS keys,
      array_agg(anchor_id::text ORDER BY anchor_n) FILTER (WHERE ${anchor}) AS ids
    FROM (${walked}) AS list_walked`.execute(db);
  const [found] = rows;
  const ids = found?.ids ?? [];
  const keys = found?.keys ?? [];
  // the counters' total and the walk are of one snapshot and agree; a disagreement would misplace every descending page
  if (!found || ids.length !== Math.floor(found.total / every)) return undefined;
  return { version: found.version, total: found.total, nulls: found.nulls, positions: ids.map((id, i) => ({ key: keys[i], id })) };
}

interface WalkedAnchors {
  version: string;
  total: number;
  nulls: number;
  keys: (string | null)[] | null;
  ids: string[] | null;
}

/** A deep page's list as list-kept.ts makes it: the anchors, the list's key in them (store, path, sort key), its total as SQL. */
export interface AnchoredList {
  pages: AnchoredPages;
  key: string;
  total: RawBuilder<number>;
  db: QueryExecutorProvider;
}

/** A page's rows as list-indexed.ts reads them: the base's columns, the sort key's text, the id and the total. */
type AnchoredRow<K> = K & { list_total: number; list_version: string };

/**
 * The page (`take` rows from `offset`) of `base` from the nearest anchor before it: the ids after the anchor's
 * row by the sort index (fewer than `every` skipped), then those rows as `keyed` selects them, with the version
 * and the total, in one statement. Null: read it the usual way.
 */
export async function anchoredPage<DB, TB extends keyof DB, O, K>(
  base: SelectQueryBuilder<DB, TB, O>,
  keyed: SelectQueryBuilder<DB, TB, K>,
  order: { keyset: Keyset; direction: RawBuilder<unknown> },
  offset: number,
  take: number,
  { pages, key, total, db }: AnchoredList,
): Promise<{ rows: K[]; count: number } | null> {
  const { keyset, direction } = order;
  const ordered = <Q extends SelectQueryBuilder<DB, TB, unknown>>(query: Q) =>
    query.orderBy(sql`${keyset.key} ${direction}`).orderBy(sql`${keyset.id} ${direction}`) as Q;
  const walk = () => walkAnchors(db, base, keyset, { version: pages.version, total }, pages.cache.every);
  const read = (start: AnchorStart) => {
    // anchorStart kept only starts whose rows after are one range of the index: no nulls to add after them
    const after = rowsAfter({ ...keyset, nullable: false }, start.after);
    const ids = ordered(base.clearSelect().select(sql`${keyset.id}`.as('page_id')).where(after))
      .limit(take)
      .offset(start.skip);
    const page = ordered(keyed.select(pages.version.as('list_version')).where(sql<SqlBool>`${keyset.id} IN (${ids})`));
    return page.execute() as Promise<AnchoredRow<K>[]>;
  };
  const rows = await anchoredRows(pages.cache, key, offset, take, keyset.descending, walk, read);
  if (!rows) return null;
  return { rows: rows.map(({ list_version, ...row }) => row as unknown as K), count: rows[0].list_total };
}
