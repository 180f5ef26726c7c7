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

/** The lowest price; candidates come oldest list first, so a strict `<` keeps the oldest of equals. */
function lowest(candidates: Candidate[]): Candidate | undefined {
  let best: Candidate | undefined;
  for (const candidate of candidates) if (!best || compareAmounts(candidate.price, best.price) < 0) best = candidate;
  return best;
}

function resolveItem(item: ResolverItem, lists: ResolverList[], fixed: Map<string, FixedPrice>, context: ResolveContext): ResolvedPrice {
  const itemId = item.variantId ?? item.productId;
  const answer = (basis: PriceBasis, chosen: Candidate | null): ResolvedPrice => ({
    productId: item.productId,
    variantId: item.variantId,
    currency: context.currency,
    price: chosen?.price ?? null,
    comparePrice: chosen?.comparePrice ?? null,
    priceListId: basis === 'base' ? null : (chosen?.listId ?? null),
    basis,
  });
  const fixedPrice = lowest(lists.flatMap((list) => fixed.get(`${list.id}/${itemId}`) ?? []));
  if (fixedPrice) return answer('fixed', fixedPrice);
  if (item.price !== null && context.currency === context.storeCurrency) {
    const adjusted = lowest(lists.flatMap((list) => adjustedCandidate(item, list, context)));
    return adjusted ? answer('adjustment', adjusted) : answer('base', { listId: '', price: item.price, comparePrice: item.comparePrice });
  }
  return answer('unavailable', null);
}

/** The item's base prices moved by the list's adjustment, if it has one (the compare price moves alike). */
function adjustedCandidate(item: ResolverItem, { id, adjustment }: ResolverList, context: ResolveContext): Candidate[] {
  if (!adjustment || item.price === null) return [];
  const price = adjustedAmount(item.price, adjustment, context.currency);
  return [{ listId: id, price, comparePrice: adjustedOrNull(item.comparePrice, adjustment, context) }];
}

const adjustedOrNull = (amount: string | null, adjustment: PercentAdjustment, context: ResolveContext) =>
  amount === null ? null : adjustedAmount(amount, adjustment, context.currency);

/** The resolved price of every item, in the order of `items`. */
export function resolvePrices(
  items: readonly ResolverItem[],
  lists: readonly ResolverList[],
  fixedPrices: readonly FixedPrice[],
  context: ResolveContext,
): ResolvedPrice[] {
  const applying = applicableLists(lists, context);
  const fixed = new Map(fixedPrices.map((row) => [`${row.listId}/${row.itemId}`, row]));
  return items.map((item) => resolveItem(item, applying, fixed, context));
}
