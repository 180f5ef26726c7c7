import { type Expression, sql } from 'kysely';
import { executeText } from './deferred.js';

/**
 * Statements whose generic plan is the plan: PostgreSQL may then run them without planning each time.
 *
 * A named statement is planned with its values ("custom" plans) until a plan made without them is not
 * estimated dearer, and a list page's never is: its total's estimate depends on the store. So the first
 * page of a list without filters (GET /customers) was planned on every request, 40% of its database CPU
 * (perf, 10,000 products), for the plan it always got: the sort index walked from the store's end, as
 * many rows as the literal LIMIT says. A statement marked here, once its session has prepared it, runs as
 * `EXECUTE` under `SET LOCAL plan_cache_mode = force_generic_plan` in one message: its generic plan is made
 * once per session and kept. Only statements whose plan cannot depend on the values may be marked (no
 * filter but the store, the LIMIT a literal): a generic plan cannot know how many rows a filter value keeps.
 * An OFFSET it cannot know either, and assumes 10% of the rows: with `LIMIT $n` too, page 41 was planned as a
 * hash join over a scan of the whole table (200 ms); with the LIMIT a literal the page's ids are known to be
 * that many, and the plan is the one every offset gets: the sort index walked, the page's rows looked up by key
 * (a page past the first of a list, src/reads/list.ts; the test in src/products/products-list.test.ts).
 */
export const GENERIC_PLAN_MARK = '/* sf:generic-plan */';

/** Marks a query (see above); the mark is a comment, so an engine that does not look for it runs it as it is. */
export function withGenericPlan<Q extends { modifyFront(modifier: Expression<unknown>): Q }>(query: Q): Q {
  return query.modifyFront(sql.raw(GENERIC_PLAN_MARK));
}

/**
 * The message that runs a marked statement prepared as `name` with its generic plan: the setting is the
 * message's own (SET LOCAL, undone at its end, or by the rollback if it fails; inside a transaction set back
 * at once). Its answer is three results; the statement's is the second.
 */
export function genericPlanMessage(name: string, literals: readonly string[]): string {
  return `SET LOCAL plan_cache_mode = force_generic_plan;\n${executeText(name, literals)};\nSET LOCAL plan_cache_mode TO DEFAULT`;
}
