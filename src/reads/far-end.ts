import { type Expression, type RawBuilder, sql } from 'kysely';
import { GENERIC_PLAN_MARK } from '../db/index.js';

/**
 * A page in the back half of a list walked from the far end (issue 42). A page by `page` finds its ids by
 * walking the sort index over every row before it (list-indexed.ts, the deferred join): PostgreSQL's OFFSET, a cost
 * that grows with the page's depth. The same rows are the first ones of the list in the opposite order, after
 * `total - offset - take` others: walked backward, the index skips those instead. The last page of a list then
 * costs what its first does, and no page skips more than half the list.
 *
 * The rule it relies on: the order is total (sort key, then id; a nullable key's nulls are last ascending and
 * first descending, PostgreSQL's defaults, so the opposite direction is exactly the reverse order), and the
 * total the mirror uses is the one of the page's own snapshot. Both hold in one statement: it reads the total
 * from the counters (list-counts.ts) once, in a CTE, and carries both walks, each behind a condition on that
 * total, which PostgreSQL evaluates once before running the walk (a one-time filter): only the walk from the
 * nearer end runs, and its offset is computed from the total in SQL. No round trip reads the total first,
 * and no write committed in between can shift the mirror. A page whose total is counted (a search, a filter
 * without counters) never goes this way: counting costs what the walk saves.
 * `far-end.test.ts` holds every page of every sort to the near end's rows, and the far walk to its cost.
 */

/** Below this many skipped rows the near end's walk costs less than carrying the far end's in the statement (an index-only walk of ~0.1 ms per 1,000 rows). */
export const FAR_END_FROM_OFFSET = 2_500;

/** The far end's walk: how many rows to skip and take in the opposite order, or null when the near end skips fewer. */
export function farEndWalk(offset: number, take: number, total: number): { offset: number; limit: number } | null {
  if (offset < FAR_END_FROM_OFFSET || offset >= total) return null;
  const after = total - offset - take;
  if (after >= offset) return null;
  return { offset: Math.max(0, after), limit: Math.min(take, total - offset) };
}

/** The list's total as the statement read it once (withListTotal's CTE): for its walks' conditions and its rows. */
export const LIST_TOTAL = sql<number>`(SELECT n FROM list_total)`;

/**
 * `page` with the list's total read first, once, from the counters (`counted`: countedTotalSql), as LIST_TOTAL;
 * `generic`: marked for its session's generic plan (src/db generic-plan.ts: its LIMITs are literals).
 */
export function withListTotal(counted: RawBuilder<number>, page: Expression<unknown>, generic: boolean): RawBuilder<unknown> {
  return sql`${sql.raw(generic ? `${GENERIC_PLAN_MARK} ` : '')}WITH list_total AS (SELECT ${counted} AS n) ${page}`;
}

/**
 * The ids and keys (`page_id`, `page_key`) of the page at `offset`, `take` rows, from whichever end of the list is
 * nearer, as farEndWalk chooses, in SQL over LIST_TOTAL (`offset` may be a column: one page of a batch). `walk(near,
 * skip)`: the list's ids and keys in its order (`near`) or the opposite one, `take` rows after `skip`. The far
 * walk's rows are cut to the page (the last page has fewer than `take`) in the order they were walked.
 */
export function eitherEndIds(
  walk: (near: boolean, skip: Expression<number>) => Expression<unknown>,
  opposite: RawBuilder<unknown>,
  offset: Expression<number>,
  take: number | RawBuilder<number>,
): RawBuilder<unknown> {
  const total = LIST_TOTAL;
  const farther = sql`${offset} >= ${sql.lit(FAR_END_FROM_OFFSET)} AND ${offset} < ${total} AND ${total} - ${offset} - ${take} < ${offset}`;
  const farSkip = sql<number>`greatest(0, ${total} - ${offset} - ${take})`;
  return sql`(SELECT near_page.page_id, near_page.page_key FROM ${walk(true, offset)} AS near_page WHERE NOT (${farther}))
    UNION ALL
    (SELECT far_page.page_id, far_page.page_key FROM ${walk(false, farSkip)} AS far_page WHERE ${farther}
      ORDER BY far_page.page_key ${opposite}, far_page.page_id ${opposite} LIMIT greatest(0, least(${take}, ${total} - ${offset})))`;
}
