import { type QueryExecutorProvider, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { type Db, withGenericPlan } from '../db/index.js';
import { FAR_END_FROM_OFFSET } from './far-end.js';
import { rowsAfter } from './list-cursor.js';
import { batchedPage, type ReadPage, readPages } from './list-pages.js';
import type { ListParams, ListSpec } from './list-spec.js';
import { type KeyedRow, keysetOf, type ListOrder, type Walk } from './list-walk.js';
import { type AnchoredList, anchoredPage } from './page-anchors.js';

/**
 * A list without a search or a narrowing: its page read in sort order through the sort's index (by offset, by
 * cursor, from an anchor, from the far end, or with other requests' pages in one batch), and its total.
 */

/** How an indexed list gets its total: from the counters (a call, or a column of the page's statement), else by counting; null: not at all. */
export type Counting = { total: (() => Promise<number>) | undefined; counted: RawBuilder<number> | undefined } | null;

/** Where an indexed list's page may be read besides `db`: in a batch with other requests' pages, from anchors. */
export interface IndexedReads {
  db: QueryExecutorProvider;
  batched: { db: Db; key: string } | undefined;
  anchoring?: AnchoredList;
}

/** The page sizes (limit + 1 rows read) whose first page may run with a generic plan: a few texts, a few plans per session. */
const GENERIC_PLAN_TAKES = new Set([26, 51, 101]);

/** One indexed page being read: the list's base, the same with its row keys (and total) selected, and how it is walked. */
interface IndexedPage<DB, TB extends keyof DB, O> {
  base: SelectQueryBuilder<DB, TB, O>;
  keyed: SelectQueryBuilder<DB, TB, KeyedRow<O>>;
  spec: ListSpec;
  order: ListOrder;
  walk: Walk;
  take: number;
  /** a page of a list without filters whose size is a literal: one plan whatever its values (generic-plan.ts) */
  generic: boolean;
}

type Found<O> = { rows: KeyedRow<O>[]; count: number | null };

export async function runIndexedList<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  params: ListParams,
  spec: ListSpec,
  order: ListOrder,
  walk: Walk,
  counting: Counting,
  unfiltered: boolean,
  { db, batched: pages, anchoring }: IndexedReads,
): Promise<Found<O>> {
  const { counted } = counting ?? {};
  const keyed = base.select([
    sql<string | null>`(${order.expression})::text`.as('list_key'),
    sql<string>`${spec.idColumn}`.as('list_id'),
    ...(counted ? [counted.as('list_total')] : []),
  ]) as unknown as SelectQueryBuilder<DB, TB, KeyedRow<O>>;
  const take = params.limit + 1;
  const page: IndexedPage<DB, TB, O> = { base, keyed, spec, order, walk, take, generic: unfiltered && GENERIC_PLAN_TAKES.has(take) };
  const anchored = anchoring
    ? await anchoredPage(base, keyed, { keyset: keysetOf(order, spec.idColumn), direction: order.direction }, walk.offset, take, anchoring)
    : null;
  if (anchored) return anchored as { rows: KeyedRow<O>[]; count: number };
  const batched = pages && page.generic && !walk.after && !pages.db.isTransaction ? pages : undefined;
  if (counting?.counted && (walk.offset >= FAR_END_FROM_OFFSET || batched)) {
    return numberedPage(page, counting.counted, counting.total as () => Promise<number>, db, batched && { ...batched, sort: params.sort });
  }
  return countedPage(page, pageStatement(page), counting);
}

/**
 * A page by number of a counted list read by list-pages.ts: deep (from its nearer end, far-end.ts), or with
 * the other requests' pages of its list, order and size asked in the same turn (`batched`).
 */
async function numberedPage<DB, TB extends keyof DB, O>(
  { base, spec, order, walk, take, generic }: IndexedPage<DB, TB, O>,
  counted: RawBuilder<number>,
  total: () => Promise<number>,
  db: QueryExecutorProvider,
  batched: { db: Db; key: string; sort: string } | undefined,
): Promise<Found<O>> {
  const taking = { base, key: order.expression, id: spec.idColumn, descending: order.descending, counted, generic };
  const read = { ...taking, take: generic ? sql.lit(take) : take };
  const { rows, total: pageTotal } = batched
    ? await batchedPage<DB, TB, O, KeyedRow<O>>(batched.db, `list-pages ${batched.key} ${batched.sort} ${take}`, read, walk.offset)
    : ((await readPages<DB, TB, O, KeyedRow<O>>(db, read, [walk.offset])).get(walk.offset) as ReadPage<KeyedRow<O>>);
  return { rows, count: pageTotal ?? (await total()) };
}

/**
 * The page's statement: after the cursor's position, the first rows, or by offset in two steps (a "deferred
 * join": the page's ids from the sort index alone, an index-only scan that skips the offset without touching
 * the table, then only those rows read whole).
 */
function pageStatement<DB, TB extends keyof DB, O>({ base, keyed, spec, order, walk, take, generic }: IndexedPage<DB, TB, O>) {
  const ordered = <T extends SelectQueryBuilder<DB, TB, unknown>>(query: T) =>
    query.orderBy(sql`${order.expression} ${order.direction}`).orderBy(sql`${spec.idColumn} ${order.direction}`) as T;
  if (walk.after) return ordered(keyed.where(rowsAfter(keysetOf(order, spec.idColumn), walk.after))).limit(take);
  if (walk.offset === 0 && generic) return withGenericPlan(ordered(keyed).limit(sql.lit(take)));
  if (walk.offset === 0) return ordered(keyed).limit(take);
  const ids = ordered(base.clearSelect().select(sql`${spec.idColumn}`.as('page_id')))
    .limit(generic ? sql.lit(take) : take)
    .offset(walk.offset);
  const page = ordered(keyed.where(sql<SqlBool>`${spec.idColumn} IN (${ids})`));
  return generic ? withGenericPlan(page) : page;
}

/** The page's rows and its total: a column of the page's statement, the counters or a count beside it; none when not `counting`. */
async function countedPage<DB, TB extends keyof DB, O>(
  { base }: IndexedPage<DB, TB, O>,
  page: SelectQueryBuilder<DB, TB, KeyedRow<O>>,
  counting: Counting,
): Promise<Found<O>> {
  if (!counting) return { rows: await page.execute(), count: null };
  const { total, counted } = counting;
  if (counted) {
    const rows = (await page.execute()) as (KeyedRow<O> & { list_total: number })[];
    return { rows, count: rows[0]?.list_total ?? (await (total as () => Promise<number>)()) };
  }
  const countAll = () =>
    base
      .clearSelect()
      .select(sql<number>`count(*)::int`.as('total'))
      .executeTakeFirstOrThrow()
      .then((row) => (row as { total: number }).total);
  const [count, rows] = await Promise.all([total ? total() : countAll(), page.execute()]);
  return { rows, count };
}
