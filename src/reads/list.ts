import { type TProperties, Type } from '@sinclair/typebox';
import { type Expression, type QueryExecutorProvider, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { type Db, GENERIC_PLAN_MARK, withGenericPlan } from '../db/index.js';
import { validationError } from '../errors.js';
import type { Pagination } from '../shared/index.js';
import { StringEnum } from '../shared/index.js';
import { FAR_END_FROM_OFFSET } from './far-end.js';
import { badCursor, decodeCursor, encodeCursor, type Keyset, type Position, rowsAfter } from './list-cursor.js';
import { batchedPage, type ReadPage, readPages } from './list-pages.js';
import { type AnchoredList, type AnchoredPages, anchoredPage } from './page-anchors.js';
import { type KeptSearches, keptOrSearchedPage, searchKey } from './search-cache.js';

/**
 * The shared list contract (CONTRACT §5, §9.3): every list endpoint declares its sorts, search and filters
 * here; every list also takes `updatedSince`, the `updatedAt` sorts and keyset `cursor`s.
 */

export interface ListParams {
  /** absent: 1, or the page after `cursor` */
  page?: number;
  limit: number;
  search?: string;
  sort: string;
  /** only records with `updatedAt >= updatedSince` */
  updatedSince?: string;
  /** `pagination.nextCursor` of the previous page of the same walk */
  cursor?: string;
  /** runListPage only (the console's "Previous page"): its `prevCursor`, the page before the one that gave it */
  before?: string;
}

export const MAX_LIMIT = 250;

function withDescending(sorts: readonly string[]): string[] {
  return sorts.flatMap((key) => [key, `-${key}`]);
}

/**
 * The query-string schema of a list endpoint: page, limit, search, sort (only the listed values, and
 * `updatedAt` on every list), updatedSince, cursor, extra filters. `defaultSort` is `-createdAt` but where
 * a list has an order of its own (a product's variants, by position).
 */
export function ListQuery<T extends TProperties = Record<never, never>>(
  sortKeys: SortKeys,
  filters: T = {} as T,
  defaultSort = '-createdAt',
) {
  if (!sortKeys.includes('createdAt')) throw new Error('a list must offer the createdAt sort (the default)');
  return Type.Object({
    // no schema default: a page given with a cursor must be seen to be refused
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'default 1; not together with cursor' })),
    limit: Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: 25, description: `records per page, 1 to ${MAX_LIMIT} (default 25)` }),
    search: Type.Optional(
      Type.String({
        maxLength: 200,
        description: "case-insensitive substring of the list's searchable fields (`%` and `_` are literal); at most 200 characters",
      }),
    ),
    sort: StringEnum(withDescending([...sortKeys, 'updatedAt']), {
      default: defaultSort,
      description: `the order: a field ascending, with \`-\` before it descending (default ${defaultSort})`,
    }),
    updatedSince: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'only records whose updatedAt is at or after this instant (e.g. 2026-11-22T10:11:44.123Z)',
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        maxLength: 4000,
        description: 'pagination.nextCursor of the previous page: the next page by keyset, with the same path, sort, filters and limit',
      }),
    ),
    ...filters,
  });
}

/** A list's sort keys (without '-'), declared once next to its query schema (`as const`). */
export type SortKeys = readonly string[];

/**
 * `ListSpec<typeof X_SORTS>` makes the compiler demand SQL for exactly the keys the query schema
 * accepts: a key missing here or unknown there does not compile.
 */
export interface ListSpec<Keys extends SortKeys = SortKeys> {
  /** the list's path (a nested list's scope adds its ids): what a cursor is bound to besides the query */
  path: string;
  /** sort key (without '-') -> a fixed SQL fragment; user input never becomes SQL text. `updatedAt` also filters `updatedSince`. */
  sorts: Record<Keys[number] | 'updatedAt', RawBuilder<unknown>>;
  /** the sort keys whose value may be null (keyset paging places nulls as ORDER BY does) */
  nullable?: readonly Keys[number][];
  /** the id column used to break ties so pages never repeat or skip */
  idColumn: RawBuilder<unknown>;
  /**
   * builds the search condition from an escaped ILIKE pattern; a condition that reads other rows
   * (a subquery) scopes them to `storeId` itself, so the store-leading trigram indexes serve it
   */
  search: (pattern: string, storeId: string) => Expression<SqlBool>;
  /**
   * 'generic': a searched page runs with the plan its session made once without the values (generic-plan.ts),
   * for a search over several columns whose trigram indexes pay whatever the term. Planned for the term, a
   * match of 8% of customers was found by a scan of every customer testing six ILIKEs on each (an ILIKE
   * lower-cases both texts per row: 47 ms for 5,000 customers) instead of the six indexes (2–4 ms).
   */
  searchPlan?: 'generic';
}

/** Where a list runs: its store, the handle `base` was built on, and what narrows it beyond exact filters. */
export interface ListScope {
  db: QueryExecutorProvider;
  storeId: string;
  /** a condition no index answers in sort order (collection membership, smart rules): listed like a search */
  narrow?: Expression<SqlBool>;
  /**
   * The exact total of `base` without counting (the list counters of list-counts.ts); a resource passes
   * it only when every filter it applied is a counter key. A search or a narrowing counts its matches.
   */
  total?: () => Promise<number>;
  /**
   * The same total as a scalar SQL expression (countedTotalSql): read by the page's own statement, one round
   * trip instead of two. `total` is still needed: a page past the end has no row to carry it.
   */
  counted?: RawBuilder<number>;
  /** the ids of a nested list's path (the collection of /collections/{id}/products): part of its cursors' binding */
  within?: readonly string[];
  /** `base` filters by the store only: its pages run with a generic plan (src/db/statements/generic-plan.ts) */
  unfiltered?: boolean;
  /**
   * With `unfiltered` and `counted`, the handle (outside a transaction) through which this list's pages by number
   * are read in batches with other requests' pages of the same list, order and size (list-pages.ts)
   */
  batched?: Db;
  /** searches kept in memory, exact by the store's catalog version (search-cache.ts): for a search without other filters */
  searches?: KeptSearches;
  /** deep pages started from anchors kept in memory, exact by the store's catalog version (page-anchors.ts): for a list without filters */
  anchors?: AnchoredPages;
}

/** The page sizes (limit + 1 rows read) whose first page may run with a generic plan: a few texts, a few plans per session. */
const GENERIC_PLAN_TAKES = new Set([26, 51, 101]);

/** `%`, `_` and `\` are literal characters in a search term. */
export function likePattern(term: string): string {
  return `%${escapeLike(term)}%`;
}

/** `term` as a LIKE/ILIKE pattern matching itself only (callers add their own `%`). */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, '\\$&');
}

/** `col1 ILIKE p OR col2 ILIKE p …` over fixed column names. */
export function ilikeAny(columns: string[]): (pattern: string) => Expression<SqlBool> {
  return (pattern) =>
    sql<SqlBool>`(${sql.join(
      columns.map((column) => sql`${sql.ref(column)} ILIKE ${pattern}`),
      sql` OR `,
    )})`;
}

/** The pagination of a page: `page` is null in cursor mode; `total` and `totalPages` are exact in both. */
export function paginationOf(params: ListParams, total: number, nextCursor: string | null = null): Pagination {
  return {
    page: params.cursor === undefined ? (params.page ?? 1) : null,
    limit: params.limit,
    total,
    totalPages: Math.ceil(total / params.limit),
    nextCursor,
  };
}

interface ListOrder {
  expression: RawBuilder<unknown>;
  direction: RawBuilder<unknown>;
  descending: boolean;
  nullable: boolean;
}

function orderOf(params: ListParams, spec: ListSpec): ListOrder {
  const descending = params.sort.startsWith('-');
  const key = descending ? params.sort.slice(1) : params.sort;
  const expression = Object.hasOwn(spec.sorts, key) ? spec.sorts[key] : undefined;
  // The query schema only admits declared keys, so a miss is a spec out of step with its schema.
  if (!expression) throw new Error(`list sort "${key}" has no SQL in its list spec`);
  const nullable = (spec.nullable ?? []).includes(key);
  return { expression, direction: descending ? sql`DESC` : sql`ASC`, descending, nullable };
}

/**
 * Where this request's page starts: an offset (`page`), or the position after the row a cursor names; walking
 * `backward` (a `before` cursor), "after" is in the list's reversed order, so the rows are those before it.
 */
interface Walk {
  offset: number;
  after: Position | null;
  backward: boolean;
  /** what the page's cursor is bound to: the path with its ids, the sort, every filter and the limit */
  binding: string;
}

/** A `before` cursor is bound to its walk and its direction: neither kind of cursor passes for the other. */
export const backwardBinding = (binding: string) => `before ${binding}`;

function bindingOf(params: ListParams, spec: ListSpec, scope: ListScope): string {
  const query = Object.entries(params as unknown as Record<string, unknown>)
    .filter(([name, value]) => name !== 'page' && name !== 'cursor' && name !== 'before' && value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([spec.path, scope.within ?? [], query]);
}

function walkOf(params: ListParams, spec: ListSpec, scope: ListScope): Walk {
  const binding = bindingOf(params, spec, scope);
  if (params.before !== undefined) {
    if (params.cursor !== undefined || params.page !== undefined) {
      throw validationError([
        { field: 'before', in: 'query', message: 'must not be sent with cursor or page: it says where the page ends' },
      ]);
    }
    return { offset: 0, after: decodeCursor(params.before, backwardBinding(binding), 'before'), backward: true, binding };
  }
  if (params.cursor === undefined) return { offset: ((params.page ?? 1) - 1) * params.limit, after: null, backward: false, binding };
  if (params.page !== undefined) {
    throw validationError([{ field: 'page', in: 'query', message: 'must not be sent with cursor: the cursor says where the page starts' }]);
  }
  return { offset: 0, after: decodeCursor(params.cursor, binding), backward: false, binding };
}

/** The rows of a page with the text of their sort value, `limit + 1` of them when there are more. */
export type KeyedRow<O> = O & { list_key: string | null };

// PostgreSQL's "data exception" class: a forged cursor value that is no value of the sort's type.
const isDataException = (error: unknown) =>
  typeof (error as { code?: unknown })?.code === 'string' && (error as { code: string }).code.startsWith('22');

/**
 * Runs a list: `base` is already scoped to the store and its exact filters. Returns the page of rows and
 * the exact pagination with its `nextCursor`. `updatedSince` is applied here, once for every list; a search
 * or a narrowing condition goes through `runMatchedList`.
 *
 * `scope.total`, when the resource passes it, gives the exact total of `base` without counting (the list
 * counters of list-counts.ts); a resource passes it only when every filter it applied is a counter key.
 * A search, a narrowing or `updatedSince` (no counter key) always counts its matches.
 *
 * Paging by `page` past the first, the rows are found in two steps (a "deferred join"): the page's ids come
 * from the sort index alone — an index-only scan skips the offset without touching the table — and only
 * those rows are then read whole. Paging by `cursor` there is no offset at all: the page starts after the
 * cursor's row through the same index (`list-cursor.ts`), at the same cost at any depth.
 */
export async function runList<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  params: ListParams,
  spec: ListSpec,
  scope: ListScope,
) {
  const { rows, count, walk } = await readList(base, params, spec, scope, true);
  return pageOf(rows, params, walk, count as number);
}

/** The rows of a list's page (limit + 1, keyed) and, when `counting`, its exact total (else null). */
export async function readList<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  params: ListParams,
  spec: ListSpec,
  scope: ListScope,
  counting: boolean,
) {
  const walk = walkOf(params, spec, scope);
  const order = walk.backward ? reversed(orderOf(params, spec)) : orderOf(params, spec);
  const since = params.updatedSince;
  const scoped = since === undefined ? base : base.where(sql<SqlBool>`${spec.sorts.updatedAt} >= ${since}`);
  const conditions = [
    ...(scope.narrow ? [scope.narrow] : []),
    ...(params.search ? [spec.search(likePattern(params.search), scope.storeId)] : []),
  ];
  const total = since === undefined ? scope.total : undefined;
  const counted = total && scope.counted;
  const count: Counting = counting ? { total, counted } : null;
  const anchorable = counting && scope.unfiltered && since === undefined && conditions.length === 0 && !walk.after;
  const anchoring = anchorable && counted ? anchoringOf(scope, spec, params, walk, counted) : undefined;
  try {
    const keepable = scope.searches && params.search && conditions.length === 1 && scope.unfiltered && since === undefined;
    const kept =
      keepable && counting && !walk.after ? await runKeptSearch(scoped, conditions[0], params, spec, order, walk, scope) : undefined;
    if (kept) return { rows: kept.rows as KeyedRow<O>[], count: kept.count, walk };
    const { rows, count: found } = conditions.length
      ? await runMatchedList(scoped, sql<SqlBool>`(${sql.join(conditions, sql` AND `)})`, params, spec, order, walk, scope.db, counting)
      : await runIndexedList(scoped, params, spec, order, walk, count, scope.unfiltered === true && since === undefined, {
          db: scope.db,
          batched: scope.batched && { db: scope.batched, key: `${spec.path} ${JSON.stringify(scope.within ?? [])} ${scope.storeId}` },
          anchoring,
        });
    return { rows, count: found, walk };
  } catch (error) {
    if (walk.after && isDataException(error))
      throw badCursor('holds a position this list cannot sort by', walk.backward ? 'before' : 'cursor');
    throw error;
  }
}

/** How an indexed list gets its total: from the counters (a call, or a column of the page's statement), else by counting; null: not at all. */
type Counting = { total: (() => Promise<number>) | undefined; counted: RawBuilder<number> | undefined } | null;

/** The page (`limit` rows, without their sort text) and its pagination; the last row's position makes the cursor. */
function pageOf<O>(rows: KeyedRow<O>[], params: ListParams, walk: Walk, total: number) {
  const more = rows.length > params.limit;
  const page = rows.slice(0, params.limit);
  const last = page.at(-1);
  const nextCursor = more && last ? encodeCursor(positionOf(last), walk.binding) : null;
  return { rows: strip(page), pagination: paginationOf(params, total, nextCursor) };
}

/** The rows without the columns the list added (sort text, id, total). */
export const strip = <O>(rows: KeyedRow<O>[]): O[] =>
  rows.map(({ list_key, list_id, list_total, ...row }: KeyedRow<O> & { list_id?: string; list_total?: number }) => row as unknown as O);

export const positionOf = (row: KeyedRow<unknown>): Position => ({ key: row.list_key, id: idOf(row as object) });

/**
 * The list's order the other way round. PostgreSQL's default null placement (last ascending, first descending)
 * is its own mirror, so `ORDER BY key DESC, id DESC` is exactly `key ASC, id ASC` reversed, and rowsAfter walks it.
 */
const reversed = (order: ListOrder): ListOrder => ({
  ...order,
  descending: !order.descending,
  direction: order.descending ? sql`ASC` : sql`DESC`,
});

const idOf = (row: object) => String((row as { list_id: unknown }).list_id);

async function runIndexedList<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  params: ListParams,
  spec: ListSpec,
  order: ListOrder,
  walk: Walk,
  counting: Counting,
  unfiltered: boolean,
  { db, batched: pages, anchoring }: { db: QueryExecutorProvider; batched: { db: Db; key: string } | undefined; anchoring?: AnchoredList },
): Promise<{ rows: KeyedRow<O>[]; count: number | null }> {
  const { total, counted } = counting ?? {};
  const ordered = <T extends SelectQueryBuilder<DB, TB, unknown>>(query: T) =>
    query.orderBy(sql`${order.expression} ${order.direction}`).orderBy(sql`${spec.idColumn} ${order.direction}`) as T;
  const keyed = base.select([
    sql<string | null>`(${order.expression})::text`.as('list_key'),
    sql<string>`${spec.idColumn}`.as('list_id'),
    ...(counted ? [counted.as('list_total')] : []),
  ]);
  const take = params.limit + 1;
  // A page of a list without filters has one plan whatever its values, once its size is a literal (generic-plan.ts).
  const generic = unfiltered && GENERIC_PLAN_TAKES.has(take);
  const anchored = anchoring
    ? await anchoredPage(base, keyed, { keyset: keysetOf(order, spec.idColumn), direction: order.direction }, walk.offset, take, anchoring)
    : null;
  if (anchored) return anchored as { rows: KeyedRow<O>[]; count: number };
  const batched = pages && generic && !walk.after && !pages.db.isTransaction;
  if (counted && (walk.offset >= FAR_END_FROM_OFFSET || batched)) {
    const taking = { base, key: order.expression, id: spec.idColumn, descending: order.descending, counted, generic };
    const read = { ...taking, take: generic ? sql.lit(take) : take };
    const { rows, total: pageTotal } = batched
      ? await batchedPage<DB, TB, O, KeyedRow<O>>(pages.db, `list-pages ${pages.key} ${params.sort} ${take}`, read, walk.offset)
      : ((await readPages<DB, TB, O, KeyedRow<O>>(db, read, [walk.offset])).get(walk.offset) as ReadPage<KeyedRow<O>>);
    return { rows, count: pageTotal ?? (await (total as () => Promise<number>)()) };
  }
  let page: typeof keyed;
  if (walk.after) page = ordered(keyed.where(rowsAfter(keysetOf(order, spec.idColumn), walk.after))).limit(take);
  else if (walk.offset === 0 && generic) page = withGenericPlan(ordered(keyed).limit(sql.lit(take)));
  else if (walk.offset === 0) page = ordered(keyed).limit(take);
  else {
    const ids = ordered(base.clearSelect().select(sql`${spec.idColumn}`.as('page_id')))
      .limit(generic ? sql.lit(take) : take)
      .offset(walk.offset);
    page = ordered(keyed.where(sql<SqlBool>`${spec.idColumn} IN (${ids})`));
    if (generic) page = withGenericPlan(page);
  }
  const countAll = () =>
    base
      .clearSelect()
      .select(sql<number>`count(*)::int`.as('total'))
      .executeTakeFirstOrThrow()
      .then((row) => (row as { total: number }).total);
  if (!counting) return { rows: (await page.execute()) as unknown as KeyedRow<O>[], count: null };
  if (counted) {
    const rows = (await page.execute()) as unknown as (KeyedRow<O> & { list_total: number })[];
    return { rows, count: rows[0]?.list_total ?? (await (total as () => Promise<number>)()) };
  }
  const [count, rows] = await Promise.all([total ? total() : countAll(), page.execute()]);
  return { rows: rows as unknown as KeyedRow<O>[], count };
}

/** A page of a list without filters deep enough to start from an anchor: its anchors and its key in them (store, path, sort key). */
function anchoringOf(
  scope: ListScope,
  spec: ListSpec,
  params: ListParams,
  walk: Walk,
  total: RawBuilder<number>,
): AnchoredList | undefined {
  const pages = scope.anchors;
  if (!pages || walk.offset < pages.cache.from) return undefined;
  // one walk serves a sort key in both directions
  const key = JSON.stringify([scope.storeId, spec.path, params.sort.replace(/^-/, '')]);
  return { pages, key, total, db: scope.db };
}

/** A search's page from its kept matches, else the search in full, kept (search-cache.ts). */
function runKeptSearch<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  condition: Expression<SqlBool>,
  params: ListParams,
  spec: ListSpec,
  order: ListOrder,
  walk: Walk,
  scope: ListScope,
) {
  const kept = scope.searches as KeptSearches;
  const key = searchKey(scope.storeId, params.search as string, params.sort);
  // a kept page reads each row's sort key with it (the kept matches are ids only)
  const row = (id: RawBuilder<unknown>) =>
    base.where(sql<SqlBool>`${spec.idColumn} = ${id}`).select(sql<string | null>`(${order.expression})::text`.as('list_key'));
  const take = params.limit + 1;
  const matches = base
    .where(condition)
    .clearSelect()
    .select([sql`${spec.idColumn}`.as('match_id'), sql`${order.expression}`.as('match_key')]);
  return keptOrSearchedPage(scope.db, kept, key, matches, row, order.direction, { offset: walk.offset, take });
}

function keysetOf(order: ListOrder, id: RawBuilder<unknown>): Keyset {
  return { key: order.expression, id, descending: order.descending, nullable: order.nullable };
}

/**
 * A searched or narrowed list, in one statement whose plan does not depend on where the matches
 * sit in sort order. The matching rows' ids and sort keys are computed once, in full, into a
 * MATERIALIZED CTE (through whatever index finds them: trigram, price range, membership); the total
 * is an exact count of that set, the page a top-N sort of it (after the cursor's position, in cursor
 * mode), and only the page's rows are read whole.
 *
 * The shape it replaces let the planner walk the sort index and test each row against the
 * condition, betting that matches come early: when they sit at the far end (the newest rows match
 * nothing) it tested every row of the store against every match — a nested-loop semi join comparing
 * millions of pairs, seconds per request (docs/decisions.md, "Searched lists materialize their matches").
 */
async function runMatchedList<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  condition: Expression<SqlBool>,
  params: ListParams,
  spec: ListSpec,
  order: ListOrder,
  walk: Walk,
  db: QueryExecutorProvider,
  counting: boolean,
): Promise<{ rows: KeyedRow<O>[]; count: number | null }> {
  const { direction } = order;
  const matches = base
    .where(condition)
    .clearSelect()
    .select([sql`${spec.idColumn}`.as('match_id'), sql`${order.expression}`.as('match_key')]);
  const after = walk.after
    ? sql`WHERE ${rowsAfter({ key: sql`match_key`, id: sql`match_id`, descending: order.descending, nullable: order.nullable }, walk.after)}`
    : sql``;
  // The page is read in the page's own order, each row by its id (a primary-key lookup per row): no
  // ORDER BY over the table that walking a sort index could satisfy, and the condition, which already
  // holds for these ids, is not evaluated again.
  const row = base.where(sql<SqlBool>`${spec.idColumn} = list_page.match_id`);
  const plan = spec.searchPlan === 'generic' && params.search ? sql.raw(GENERIC_PLAN_MARK) : sql``;
  const { rows } = await sql<KeyedRow<O> & { list_total: number }>`${plan}WITH list_matches AS MATERIALIZED (${matches}),
    list_page AS (SELECT match_id, match_key FROM list_matches ${after} ORDER BY match_key ${direction}, match_id ${direction}
      LIMIT ${params.limit + 1} ${walk.offset ? sql`OFFSET ${walk.offset}` : sql``})
    SELECT list_rows.*, list_page.match_key::text AS list_key, list_page.match_id AS list_id,
      ${counting ? sql`(SELECT count(*) FROM list_matches)::int` : sql`NULL::int`} AS list_total
    FROM list_page CROSS JOIN LATERAL ${row} AS list_rows
    ORDER BY list_page.match_key ${direction}, list_page.match_id ${direction}`.execute(db);
  const page = rows.map(({ list_total, ...row }) => row as unknown as KeyedRow<O>);
  if (!counting) return { rows: page, count: null };
  // A page past the end has no row to carry the total: count the matches on their own (rare).
  const count =
    rows[0]?.list_total ??
    (walk.offset === 0 && !walk.after
      ? 0
      : (await sql<{ total: number }>`SELECT count(*)::int AS total FROM (${matches}) AS list_matches`.execute(db)).rows[0].total);
  return { rows: page, count };
}
