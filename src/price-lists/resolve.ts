import { adjustedAmount, compareAmounts, type PercentAdjustment } from '../shared/index.js';

/**
 * The price resolution rule of CONTRACT §14, as a pure function over rows (no database, no clock), so the
 * property test (resolve.unit.test.ts) holds it against a plain reference implementation. Amounts are decimal
 * strings (NUMERIC's text); nothing here is a binary float.
 *
 * For one item, among the lists that apply (active, of the asked currency, valid at `at`: startsAt ≤ at <
 * endsAt, and for the buyer: no customerTags, or a tag the customer has, case-insensitively):
 *   1. the lowest fixed price among them (basis "fixed");
 *   2. else the lowest of their adjusted base prices (basis "adjustment"; adjustments exist only in the store's
 *      currency, rounded half-up to its minor unit);
 *   3. else, in the store's currency, the base price (basis "base", no list);
 *   4. else no price (basis "unavailable").
 * Equal prices go to the list created first (then the smaller id: ids are unique where times may tie).
 */

export interface ResolverList {
  id: string;
  currency: string;
  status: string;
  startsAt: Date | null;
  endsAt: Date | null;
  customerTags: string[];
  adjustment: PercentAdjustment | null;
  createdAt: Date;
}

/** A variant, or a simple product (variantId null), with its base prices in the store's currency. */
export interface ResolverItem {
  productId: string;
  variantId: string | null;
  price: string | null;
  comparePrice: string | null;
}

/** A fixed price of an item (`itemId`: the variant's id, or the simple product's) in a list. */
export interface FixedPrice {
  listId: string;
  itemId: string;
  price: string;
  comparePrice: string | null;
}

export interface ResolveContext {
  currency: string;
  storeCurrency: string;
  /** the customer's tags; null: no customer (only lists without customerTags apply) */
  customerTags: string[] | null;
  at: Date;
}

export type PriceBasis = 'fixed' | 'adjustment' | 'base' | 'unavailable';

export interface ResolvedPrice {
  productId: string;
  variantId: string | null;
  currency: string;
  price: string | null;
  comparePrice: string | null;
  priceListId: string | null;
  basis: PriceBasis;
}

function appliesTo(list: ResolverList, context: ResolveContext, tags: Set<string> | null): boolean {
  if (list.status !== 'active' || list.currency !== context.currency) return false;
  if (list.startsAt && context.at < list.startsAt) return false;
  if (list.endsAt && context.at >= list.endsAt) return false;
  if (list.customerTags.length === 0) return true;
  return tags !== null && list.customerTags.some((tag) => tags.has(tag.toLowerCase()));
}

/** The lists that apply, oldest first (the order ties are broken in). */
export function applicableLists(lists: readonly ResolverList[], context: ResolveContext): ResolverList[] {
  const tags = context.customerTags === null ? null : new Set(context.customerTags.map((tag) => tag.toLowerCase()));
  return lists
    .filter((list) => appliesTo(list, context, tags))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

interface Candidate {
  listId: string;
  price: string;
  comparePrice: string | null;
}

/** A fixed price of an applying list, with the list's place among them (oldest first: 0). */
interface RankedPrice {
  rank: number;
  row: FixedPrice;
}

/**
 * The fixed prices of the applying lists, by item: one pass over the rows, so an item looks only at its own
 * prices (not at every list: a key string per item and list was most of GET /prices' garbage).
 */
function fixedByItem(fixedPrices: readonly FixedPrice[], applying: ResolverList[]): Map<string, RankedPrice[]> {
  const rankOf = new Map(applying.map((list, rank) => [list.id, rank]));
  const byItem = new Map<string, RankedPrice[]>();
  for (const row of fixedPrices) {
    const rank = rankOf.get(row.listId);
    if (rank === undefined) continue;
    const prices = byItem.get(row.itemId);
    if (prices) prices.push({ rank, row });
    else byItem.set(row.itemId, [{ rank, row }]);
  }
  return byItem;
}

/** The lowest price, and of equal prices the oldest list's (the smaller rank). */
function lowestFixed(prices: RankedPrice[] | undefined): FixedPrice | undefined {
  if (!prices) return undefined;
  let best = prices[0];
  for (let i = 1; i < prices.length; i++) {
    const order = compareAmounts(prices[i].row.price, best.row.price);
    if (order < 0 || (order === 0 && prices[i].rank < best.rank)) best = prices[i];
  }
  return best.row;
}

/**
 * The applying lists with an adjustment (oldest first), each with the adjusted amounts it has computed: items
 * of a product often share a base price, and only the winner's compare price is needed.
 */
interface AdjustingList {
  list: ResolverList & { adjustment: PercentAdjustment };
  adjusted: Map<string, string>;
}

function adjustedBy(adjusting: AdjustingList, amount: string, currency: string): string {
  let adjusted = adjusting.adjusted.get(amount);
  if (adjusted === undefined) {
    adjusted = adjustedAmount(amount, adjusting.list.adjustment, currency);
    adjusting.adjusted.set(amount, adjusted);
  }
  return adjusted;
}

/** The lowest adjusted price of a base price; lists come oldest first, so a strict `<` keeps the oldest of equals. */
function lowestAdjusted(item: ResolverItem & { price: string }, adjusting: AdjustingList[], currency: string): Candidate | undefined {
  let best: { by: AdjustingList; price: string } | undefined;
  for (const by of adjusting) {
    const price = adjustedBy(by, item.price, currency);
    if (!best || compareAmounts(price, best.price) < 0) best = { by, price };
  }
  if (!best) return undefined;
  const comparePrice = item.comparePrice === null ? null : adjustedBy(best.by, item.comparePrice, currency);
  return { listId: best.by.list.id, price: best.price, comparePrice };
}

interface Resolving {
  context: ResolveContext;
  fixed: Map<string, RankedPrice[]>;
  adjusting: AdjustingList[];
}

function resolveItem(item: ResolverItem, { context, fixed, adjusting }: Resolving): ResolvedPrice {
  const answer = (basis: PriceBasis, chosen: Candidate | null): ResolvedPrice => ({
    productId: item.productId,
    variantId: item.variantId,
    currency: context.currency,
    price: chosen?.price ?? null,
    comparePrice: chosen?.comparePrice ?? null,
    priceListId: basis === 'base' ? null : (chosen?.listId ?? null),
    basis,
  });
  const fixedPrice = lowestFixed(fixed.get(item.variantId ?? item.productId));
  if (fixedPrice) return answer('fixed', fixedPrice);
  if (item.price !== null && context.currency === context.storeCurrency) {
    const adjusted = lowestAdjusted(item as ResolverItem & { price: string }, adjusting, context.currency);
    return adjusted ? answer('adjustment', adjusted) : answer('base', { listId: '', price: item.price, comparePrice: item.comparePrice });
  }
  return answer('unavailable', null);
}

/** The resolved price of every item, in the order of `items`. */
export function resolvePrices(
  items: readonly ResolverItem[],
  lists: readonly ResolverList[],
  fixedPrices: readonly FixedPrice[],
  context: ResolveContext,
): ResolvedPrice[] {
  const applying = applicableLists(lists, context);
  const adjusting = applying.flatMap((list) =>
    list.adjustment ? [{ list: list as AdjustingList['list'], adjusted: new Map<string, string>() }] : [],
  );
  const resolving = { context, fixed: fixedByItem(fixedPrices, applying), adjusting };
  return items.map((item) => resolveItem(item, resolving));
}
