import { ORDER_STATUSES, productFixture, SEARCH_TERM, WIDE_SEARCH_TERM } from './fixtures.js';

/**
 * `--skew`: the same kinds of rows in a shape that punishes plans betting on where matches sit in
 * creation order. Every product a measured read matches (either search term, the smart collection
 * "Under $100" — price < 100 and active) is among the oldest, the rest of the catalog after them, and
 * then a burst of BURST newer products that match nothing, as if just created through the API. Orders
 * likewise: the fulfilled ones (the status-filter scenario) are the oldest, then pending and
 * cancelled, then BURST new pending orders. Uniform data (the default) spreads all of them evenly.
 */

export const BURST = 10_000;

/** Whether product fixture j is matched by a measured read (either search, or the smart collection). */
export function matchedByReads(j: number): boolean {
  const fixture = productFixture(j);
  const title = fixture.title.toLowerCase();
  return title.includes(SEARCH_TERM) || title.includes(WIDE_SEARCH_TERM) || (fixture.price < 100 && fixture.status === 'active');
}

/** The fixture index of each product in creation order (oldest first). */
export function catalogOrder(count: number, skew: boolean): number[] {
  if (!skew) return Array.from({ length: count }, (_, j) => j);
  const matched: number[] = [];
  const others: number[] = [];
  for (let j = 0; j < count; j++) (matchedByReads(j) ? matched : others).push(j);
  const burst: number[] = [];
  for (let j = count; burst.length < BURST; j++) if (!matchedByReads(j)) burst.push(j);
  return [...matched, ...others, ...burst];
}

/** How many orders, and order i's status: uniform cycles ORDER_STATUSES, skewed sorts them by position and adds the burst. */
export function orderPlan(count: number, skew: boolean): { count: number; statusOf: (i: number) => string } {
  if (!skew) return { count, statusOf: (i) => ORDER_STATUSES[i % ORDER_STATUSES.length] };
  const sorted = ['fulfilled', 'pending', 'cancelled'].flatMap((status) => ORDER_STATUSES.filter((s) => s === status));
  return {
    count: count + BURST,
    statusOf: (i) => (i >= count ? 'pending' : sorted[Math.floor((i * sorted.length) / count)]),
  };
}
