import { type TProperties, Type } from '@sinclair/typebox';
import { type Expression, type QueryExecutorProvider, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Pagination } from './common.schema.js';
import { StringEnum } from './common.schema.js';

/** The shared list contract (CONTRACT §5): every list endpoint declares its sorts, search and filters here. */

export interface ListParams {
  page: number;
  limit: number;
  search?: string;
  sort: string;
}

export const MAX_LIMIT = 250;

function withDescending(sorts: readonly string[]): string[] {
  return sorts.flatMap((key) => [key, `-${key}`]);
}

/** The query-string schema of a list endpoint: page, limit, search, sort (only the listed values), extra filters. */
export function ListQuery<T extends TProperties = Record<never, never>>(sortKeys: SortKeys, filters: T = {} as T) {
  if (!sortKeys.includes('createdAt')) throw new Error('a list must offer the createdAt sort (the default)');
  return Type.Object({
    page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
    limit: Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: 25 }),
    search: Type.Optional(Type.String({ maxLength: 200 })),
    sort: StringEnum(withDescending(sortKeys), { default: '-createdAt' }),
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
  /** sort key (without '-') -> a fixed SQL fragment; user input never becomes SQL text */
  sorts: Record<Keys[number], RawBuilder<unknown>>;
  /** the id column used to break ties so pages never repeat or skip */
  idColumn: RawBuilder<unknown>;
  /**
   * builds the search condition from an escaped ILIKE pattern; a condition that reads other rows
   * (a subquery) scopes them to `storeId` itself, so the store-leading trigram indexes serve it
   */
  search: (pattern: string, storeId: string) => Expression<SqlBool>;
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
}

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

export function paginationOf(params: ListParams, total: number): Pagination {
  return { page: params.page, limit: params.limit, total, totalPages: Math.ceil(total / params.limit) };
}

interface ListOrder {
  expression: RawBuilder<unknown>;
  direction: RawBuilder<unknown>;
}

function orderOf(params: ListParams, spec: ListSpec): ListOrder {
  const descending = params.sort.startsWith('-');
  const key = descending ? params.sort.slice(1) : params.sort;
  const expression = Object.hasOwn(spec.sorts, key) ? spec.sorts[key] : undefined;
  // The query schema only admits declared keys, so a miss is a spec out of step with its schema.
  if (!expression) throw new Error(`list sort "${key}" has no SQL in its list spec`);
  return { expression, direction: descending ? sql`DESC` : sql`ASC` };
}

/**
 * Runs a list: `base` is already scoped to the store and its exact filters. Returns the page of
 * rows and the exact pagination. A search or a narrowing condition goes through `runMatchedList`.
 *
 * `scope.total`, when the resource passes it, gives the exact total of `base` without counting (the list
 * counters of list-counts.ts); a resource passes it only when every filter it applied is a counter key.
 * A search always counts its matches.
 *
 * Past the first page the rows are found in two steps (a "deferred join"): the page's ids come
 * from the sort index alone — an index-only scan skips the offset without touching the table —
 * and only those rows are then read whole. Page 2,000 of a 100,000-row list reads 25 rows, not 50,000.
 */
export async function runList<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  params: ListParams,
  spec: ListSpec,
  scope: ListScope,
) {
  const order = orderOf(params, spec);
  const conditions = [
    ...(scope.narrow ? [scope.narrow] : []),
    ...(params.search ? [spec.search(likePattern(params.search), scope.storeId)] : []),
  ];
  if (conditions.length) return runMatchedList(base, sql<SqlBool>`(${sql.join(conditions, sql` AND `)})`, params, spec, order, scope.db);
  const ordered = <T extends SelectQueryBuilder<DB, TB, unknown>>(query: T) =>
    query.orderBy(sql`${order.expression} ${order.direction}`).orderBy(sql`${spec.idColumn} ${order.direction}`) as T;
  const offset = (params.page - 1) * params.limit;
  const page =
    offset === 0
      ? ordered(base).limit(params.limit)
      : ordered(
          base.where(
            sql<SqlBool>`${spec.idColumn} IN (${ordered(base.clearSelect().select(sql`${spec.idColumn}`.as('page_id')))
              .limit(params.limit)
              .offset(offset)})`,
          ),
        );
  const counted = () =>
    base
      .clearSelect()
      .select(sql<number>`count(*)::int`.as('total'))
      .executeTakeFirstOrThrow()
      .then((row) => (row as { total: number }).total);
  const [total, rows] = await Promise.all([scope.total ? scope.total() : counted(), page.execute()]);
  return { rows: rows as O[], pagination: paginationOf(params, total) };
}

/**
 * A searched or narrowed list, in one statement whose plan does not depend on where the matches
 * sit in sort order. The matching rows' ids and sort keys are computed once, in full, into a
 * MATERIALIZED CTE (through whatever index finds them: trigram, price range, membership); the total
 * is an exact count of that set, the page a top-N sort of it, and only the page's rows are read whole.
 *
 * The shape it replaces let the planner walk the sort index and test each row against the
 * condition, betting that matches come early: when they sit at the far end (the newest rows match
 * nothing) it tested every row of the store against every match — a nested-loop semi join comparing
 * millions of pairs, seconds per request (docs/performance.md, "Round 2").
 */
async function runMatchedList<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  condition: Expression<SqlBool>,
  params: ListParams,
  spec: ListSpec,
  order: ListOrder,
  db: QueryExecutorProvider,
) {
  const { direction } = order;
  const matches = base
    .where(condition)
    .clearSelect()
    .select([sql`${spec.idColumn}`.as('match_id'), sql`${order.expression}`.as('match_key')]);
  // The page is read in the page's own order, each row by its id (a primary-key lookup per row): no
  // ORDER BY over the table that walking a sort index could satisfy, and the condition, which already
  // holds for these ids, is not evaluated again.
  const row = base.where(sql<SqlBool>`${spec.idColumn} = list_page.match_id`);
  const { rows } = await sql<O & { list_total: number }>`WITH list_matches AS MATERIALIZED (${matches}),
    list_page AS (SELECT match_id, match_key FROM list_matches ORDER BY match_key ${direction}, match_id ${direction}
      LIMIT ${params.limit} OFFSET ${(params.page - 1) * params.limit})
    SELECT list_rows.*, (SELECT count(*) FROM list_matches)::int AS list_total
    FROM list_page CROSS JOIN LATERAL ${row} AS list_rows
    ORDER BY list_page.match_key ${direction}, list_page.match_id ${direction}`.execute(db);
  // A page past the end has no row to carry the total: count the matches on their own (rare).
  const total =
    rows[0]?.list_total ??
    (params.page === 1
      ? 0
      : (await sql<{ total: number }>`SELECT count(*)::int AS total FROM (${matches}) AS list_matches`.execute(db)).rows[0].total);
  return { rows: rows.map(({ list_total, ...row }) => row as O), pagination: paginationOf(params, total) };
}
