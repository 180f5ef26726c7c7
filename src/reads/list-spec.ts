import { type TProperties, Type } from '@sinclair/typebox';
import { type Expression, type QueryExecutorProvider, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/index.js';
import type { Pagination } from '../shared/index.js';
import { StringEnum } from '../shared/index.js';
import type { AnchoredPages } from './page-anchors.js';
import type { KeptSearches } from './search-cache.js';

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
