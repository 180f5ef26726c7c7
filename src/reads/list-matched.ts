import { type Expression, type QueryExecutorProvider, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { GENERIC_PLAN_MARK } from '../db/index.js';
import { rowsAfter } from './list-cursor.js';
import type { ListParams, ListSpec } from './list-spec.js';
import type { KeyedRow, ListOrder, Walk } from './list-walk.js';

/** Every row meeting `condition`: its id and sort key (`match_id`, `match_key`), the set a searched list pages. */
export function matchesOf<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  condition: Expression<SqlBool>,
  spec: ListSpec,
  order: ListOrder,
) {
  return base
    .where(condition)
    .clearSelect()
    .select([sql`${spec.idColumn}`.as('match_id'), sql`${order.expression}`.as('match_key')]);
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
export async function runMatchedList<DB, TB extends keyof DB, O>(
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
  const matches = matchesOf(base, condition, spec, order);
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
