import { type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { badCursor, encodeCursor } from './list-cursor.js';
import { type Counting, runIndexedList } from './list-indexed.js';
import { anchoringOf, runKeptSearch } from './list-kept.js';
import { runMatchedList } from './list-matched.js';
import { type ListParams, type ListScope, type ListSpec, likePattern, paginationOf } from './list-spec.js';
import { type KeyedRow, type ListOrder, orderOf, positionOf, reversed, strip, type Walk, walkOf } from './list-walk.js';

/**
 * Which way a list's page is read (the plan choice): a search kept between its pages (list-kept.ts), a searched
 * or narrowed list (list-matched.ts), else the sort's index (list-indexed.ts: by offset or cursor, from an
 * anchor, from the far end, in a batch). The list contract itself, what a list declares: list-spec.ts.
 */

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
 * Paging by `page` past the first, the rows are found in two steps (a "deferred join", list-indexed.ts). Paging
 * by `cursor` there is no offset at all: the page starts after the cursor's row through the same index
 * (`list-cursor.ts`), at the same cost at any depth.
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
  try {
    const { rows, count } = await readRows(base, params, spec, scope, { walk, order, counting });
    return { rows, count, walk };
  } catch (error) {
    if (walk.after && isDataException(error))
      throw badCursor('holds a position this list cannot sort by', walk.backward ? 'before' : 'cursor');
    throw error;
  }
}

/**
 * The plan choice. A search or a narrowing: its kept matches when it is a search alone walked by page number,
 * counted or not (list-kept.ts), else its matches in full (list-matched.ts). Otherwise the sort's index
 * (list-indexed.ts), from an anchor when the list has no filter and its total is a counted column.
 */
async function readRows<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  params: ListParams,
  spec: ListSpec,
  scope: ListScope,
  { walk, order, counting }: { walk: Walk; order: ListOrder; counting: boolean },
): Promise<{ rows: KeyedRow<O>[]; count: number | null }> {
  const since = params.updatedSince;
  const scoped = since === undefined ? base : base.where(sql<SqlBool>`${spec.sorts.updatedAt} >= ${since}`);
  const unfiltered = scope.unfiltered === true && since === undefined;
  const conditions = [
    ...(scope.narrow ? [scope.narrow] : []),
    ...(params.search ? [spec.search(likePattern(params.search), scope.storeId)] : []),
  ];
  if (conditions.length) {
    // kept with or without a total (the console's list): past its first page a search then costs its page, not its matches
    if (scope.searches && params.search && conditions.length === 1 && unfiltered && !walk.after) {
      const kept = await runKeptSearch(scoped, conditions[0], params, spec, order, walk, scope);
      return { rows: kept.rows as KeyedRow<O>[], count: counting ? kept.count : null };
    }
    const condition = sql<SqlBool>`(${sql.join(conditions, sql` AND `)})`;
    return runMatchedList(scoped, condition, params, spec, order, walk, scope.db, counting);
  }
  const total = since === undefined ? scope.total : undefined;
  const counted = total && scope.counted;
  const anchoring = counting && unfiltered && !walk.after && counted ? anchoringOf(scope, spec, params, walk, counted) : undefined;
  const batched = scope.batched && { db: scope.batched, key: `${spec.path} ${JSON.stringify(scope.within ?? [])} ${scope.storeId}` };
  const count: Counting = counting ? { total, counted } : null;
  return runIndexedList(scoped, params, spec, order, walk, count, unfiltered, { db: scope.db, batched, anchoring });
}

/** The page (`limit` rows, without their sort text) and its pagination; the last row's position makes the cursor. */
function pageOf<O>(rows: KeyedRow<O>[], params: ListParams, walk: Walk, total: number) {
  const more = rows.length > params.limit;
  const page = rows.slice(0, params.limit);
  const last = page.at(-1);
  const nextCursor = more && last ? encodeCursor(positionOf(last), walk.binding) : null;
  return { rows: strip(page), pagination: paginationOf(params, total, nextCursor) };
}
