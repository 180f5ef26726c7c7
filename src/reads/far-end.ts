/**
 * A page in the back half of a list walked from the far end (issue 42). A page by `page` finds its ids by
 * walking the sort index over every row before it (list.ts, the deferred join): PostgreSQL's OFFSET, a cost
 * that grows with the page's depth. The same rows are the first ones of the list in the opposite order, after
 * `total - offset - take` others: walked backward, the index skips those instead. The last page of a list then
 * costs what its first does, and no page skips more than half the list.
 *
 * The rule it relies on: the order is total (sort key, then id; a nullable key's nulls are last ascending and
 * first descending, PostgreSQL's defaults, so the opposite direction is exactly the reverse order), and the
 * total used for the mirror is the one of the page's own snapshot. The total is read first (the counters,
 * list-counts.ts: a sum over a few rows), and the page's statement reads it again with its rows; when a write
 * committed between the two changed it, the page is read again the usual way. A page whose total is counted
 * (a search, a filter without counters) never goes this way: counting costs what the walk saves.
 * `far-end.test.ts` holds every page of every sort to the near end's rows.
 */

/** Below this many skipped rows the near end's walk costs less than the total's round trip (an index-only walk of ~0.1 ms per 1,000 rows). */
export const FAR_END_FROM_OFFSET = 2_500;

/** The far end's walk: how many rows to skip and take in the opposite order, or null when the near end skips fewer. */
export function farEndWalk(offset: number, take: number, total: number): { offset: number; limit: number } | null {
  if (offset < FAR_END_FROM_OFFSET || offset >= total) return null;
  const after = total - offset - take;
  if (after >= offset) return null;
  return { offset: Math.max(0, after), limit: Math.min(take, total - offset) };
}
