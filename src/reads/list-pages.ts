import { type Expression, type QueryExecutorProvider, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/index.js';
import { batchedRead } from './batched-reads.js';
import { eitherEndIds, LIST_TOTAL, withListTotal } from './far-end.js';

/**
 * Pages by number of a list whose total comes from the counters (list-counts.ts), one statement for one page or
 * for a batch of them (issue 42: a sync job's workers, each asking another page). The statement reads the total
 * once (far-end.ts, withListTotal), and for each asked offset the page's ids from the nearer end of the list
 * (eitherEndIds, a lateral walk per offset), then each row by its id: every page of a batch is the page a
 * statement of its own would read, in one snapshot, with the same total.
 *
 * Batched (`batch`): the pages of one list of one store in one order and size, asked in the same turn of the
 * event loop, go as one statement (batchedRead: after every request of the turn asked, one batch in flight), so
 * the socket write that wakes a backend, the statement's own cost and building it are paid once for all of
 * them instead of once each; each request still sends its own page. Only outside a transaction (a
 * transaction's reads are its own) and only for a list whose every filter is the store's (its statement is the
 * same for every request of the batch but for the offsets). `list-pages.test.ts` holds a batch to one
 * statement and each of its pages to the rows a cursor walk finds there.
 */

/** What the pages' statement is built from: the list's base (the store's rows), its order, its page size and its total. */
export interface PagesRead<DB, TB extends keyof DB, O> {
  base: SelectQueryBuilder<DB, TB, O>;
  key: RawBuilder<unknown>;
  id: RawBuilder<unknown>;
  descending: boolean;
  /** rows per page, limit + 1 (a literal when the statement runs with its generic plan) */
  take: number | RawBuilder<number>;
  /** the total as a scalar expression (countedTotalSql) */
  counted: RawBuilder<number>;
  generic: boolean;
}

/** A page's rows (with `list_key`, `list_id`) and the total its statement read; the total is null when no page of the statement had a row. */
export interface ReadPage<R> {
  rows: R[];
  total: number | null;
}

/** The pages at `offsets`, in one statement, by offset. */
export async function readPages<DB, TB extends keyof DB, O, R>(
  db: QueryExecutorProvider,
  read: PagesRead<DB, TB, O>,
  offsets: readonly number[],
): Promise<Map<number, ReadPage<R>>> {
  const { base, key, id, take } = read;
  const [direction, opposite] = read.descending ? [sql`DESC`, sql`ASC`] : [sql`ASC`, sql`DESC`];
  const walk = (near: boolean, skip: Expression<number>) =>
    base
      .clearSelect()
      .select([sql`${id}`.as('page_id'), sql`${key}`.as('page_key')])
      .orderBy(sql`${key} ${near ? direction : opposite}`)
      .orderBy(sql`${id} ${near ? direction : opposite}`)
      .limit(take)
      .offset(skip);
  const ids = eitherEndIds(walk, opposite, sql<number>`list_pages.page_offset`, take);
  // OFFSET 0 keeps the row's subquery from being flattened into a join: each row is then read by its key, never
  // by a hash join over a scan of the store's rows (chosen for a page of 251 once the planner multiplied its estimates)
  const row = base
    .select([sql<string | null>`(${key})::text`.as('list_key'), sql<string>`${id}`.as('list_id')])
    .where(sql<SqlBool>`${id} = list_ids.page_id`)
    .offset(sql.lit(0));
  const statement = sql<
    R & { list_offset: number; list_total: number }
  >`SELECT list_rows.*, list_pages.page_offset AS list_offset, ${LIST_TOTAL} AS list_total
    FROM unnest(${[...new Set(offsets)]}::int[]) AS list_pages(page_offset)
    CROSS JOIN LATERAL (${ids}) AS list_ids
    CROSS JOIN LATERAL ${row} AS list_rows
    ORDER BY list_pages.page_offset, list_ids.page_key ${direction}, list_ids.page_id ${direction}`;
  const { rows } = await withListTotal(read.counted, statement, read.generic).execute(db);
  const total = rows.length ? (rows[0] as { list_total: number }).list_total : null;
  const pages = new Map<number, ReadPage<R>>(offsets.map((offset) => [offset, { rows: [], total }]));
  for (const { list_offset, list_total, ...rest } of rows as (R & { list_offset: number; list_total: number })[]) {
    pages.get(list_offset)?.rows.push(rest as unknown as R);
  }
  return pages;
}

/**
 * The page at `offset`, read with the other pages of `batch` asked in the same turn (see above). `batch` names the
 * statement but for its offsets: the list, the store, the order and the page size.
 */
export async function batchedPage<DB, TB extends keyof DB, O, R>(
  db: Db,
  batch: string,
  read: PagesRead<DB, TB, O>,
  offset: number,
): Promise<ReadPage<R>> {
  const page = await batchedRead(db, batch, String(offset), async (keys) => {
    const pages = await readPages<DB, TB, O, R>(db, read, keys.map(Number));
    return new Map([...pages].map(([at, one]) => [String(at), one]));
  });
  return page ?? { rows: [], total: null };
}
