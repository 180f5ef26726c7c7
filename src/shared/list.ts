import { type TProperties, Type } from '@sinclair/typebox';
import { type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Pagination } from './schema.js';
import { StringEnum } from './schema.js';

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
export function ListQuery<T extends TProperties = Record<never, never>>(sortKeys: readonly string[], filters: T = {} as T) {
  return Type.Object({
    page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
    limit: Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: 25 }),
    search: Type.Optional(Type.String({ maxLength: 200 })),
    sort: StringEnum(withDescending(sortKeys), { default: '-createdAt' }),
    ...filters,
  });
}

export interface ListSpec {
  /** sort key (without '-') -> a fixed SQL fragment; user input never becomes SQL text */
  sorts: Record<string, RawBuilder<unknown>>;
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
 */
export async function runList<DB, TB extends keyof DB, O>(base: SelectQueryBuilder<DB, TB, O>, params: ListParams, spec: ListSpec) {
  const filtered = params.search ? base.where(spec.search(likePattern(params.search))) : base;
  const descending = params.sort.startsWith('-');
  const key = descending ? params.sort.slice(1) : params.sort;
  const sortExpression = spec.sorts[key] ?? spec.sorts.createdAt;
  const direction = descending ? sql`DESC` : sql`ASC`;
  const [countRow, rows] = await Promise.all([
    filtered.clearSelect().select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
    filtered
      .orderBy(sql`${sortExpression} ${direction}`)
      .orderBy(sql`${spec.idColumn} ${direction}`)
      .limit(params.limit)
      .offset((params.page - 1) * params.limit)
      .execute(),
  ]);
  const total = (countRow as { total: number }).total;
  return { rows, pagination: paginationOf(params, total) };
}
