import { type TProperties, Type } from '@sinclair/typebox';
import { type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
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
  /** builds the search condition from an escaped ILIKE pattern */
  search: (pattern: string) => Expression<SqlBool>;
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

/**
 * Runs a list: `base` is already scoped to the store and its filters. Returns the page of rows
 * and the exact pagination.
 *
 * `total`, when the resource passes it, gives the exact total of `base` without counting (the list
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
  total?: () => Promise<number>,
) {
  const filtered = params.search ? base.where(spec.search(likePattern(params.search))) : base;
  const descending = params.sort.startsWith('-');
  const key = descending ? params.sort.slice(1) : params.sort;
  const sortExpression = Object.hasOwn(spec.sorts, key) ? spec.sorts[key] : undefined;
  // The query schema only admits declared keys, so a miss is a spec out of step with its schema.
  if (!sortExpression) throw new Error(`list sort "${key}" has no SQL in its list spec`);
  const direction = descending ? sql`DESC` : sql`ASC`;
  const ordered = <T extends SelectQueryBuilder<DB, TB, unknown>>(query: T) =>
    query.orderBy(sql`${sortExpression} ${direction}`).orderBy(sql`${spec.idColumn} ${direction}`) as T;
  const offset = (params.page - 1) * params.limit;
  const page =
    offset === 0
      ? ordered(filtered).limit(params.limit)
      : ordered(
          base.where(
            sql<SqlBool>`${spec.idColumn} IN (${ordered(filtered.clearSelect().select(sql`${spec.idColumn}`.as('page_id')))
              .limit(params.limit)
              .offset(offset)})`,
          ),
        );
  const counted = () =>
    filtered
      .clearSelect()
      .select(sql<number>`count(*)::int`.as('total'))
      .executeTakeFirstOrThrow()
      .then((row) => (row as { total: number }).total);
  const [exact, rows] = await Promise.all([total && !params.search ? total() : counted(), page.execute()]);
  return { rows: rows as O[], pagination: paginationOf(params, exact) };
}
