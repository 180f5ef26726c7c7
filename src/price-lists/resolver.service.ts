import type { Db } from '../db/index.js';
import { type ErrorDetail, validationError } from '../errors.js';
import { currencyDetail, isId } from '../shared/index.js';
import { storeCurrency } from '../stores/index.js';
import { applicableLists, type ResolvedPrice as ResolvedRow, type ResolverList, resolvePrices } from './resolve.js';
import { MAX_PRICED_PRODUCTS, type PriceContextQuery, type PricesQuery, type ResolvedPrice } from './resolver.schema.js';
import { type ListRow, selectActiveLists, selectCustomerTags, selectFixedPrices, selectPricedItems } from './resolver.sql.js';

const queryDetail = (field: string, message: string): ErrorDetail => ({ field, in: 'query', message });
const dateOrNull = (value: Date | string | null) => (value === null ? null : new Date(value));

function toResolverList(row: ListRow): ResolverList {
  const adjustment =
    row.adjustment_type && row.adjustment_value !== null
      ? { type: row.adjustment_type as 'percentageDecrease' | 'percentageIncrease', value: row.adjustment_value }
      : null;
  return {
    id: row.id,
    currency: row.currency,
    status: row.status,
    startsAt: dateOrNull(row.starts_at),
    endsAt: dateOrNull(row.ends_at),
    customerTags: row.customer_tags,
    adjustment,
    createdAt: new Date(row.created_at),
  };
}

/** The amounts leave as JSON numbers (the decimal text's own spelling, as products' prices do). */
const toOutput = (row: ResolvedRow): ResolvedPrice => ({
  ...row,
  price: row.price === null ? null : Number(row.price),
  comparePrice: row.comparePrice === null ? null : Number(row.comparePrice),
});

/** The customer's tags (null: no customer), or a 400 naming customerId. */
async function customerTagsOf(db: Db, storeId: string, customerId: string | undefined): Promise<string[] | null> {
  if (customerId === undefined) return null;
  const tags = isId(customerId) ? await selectCustomerTags(db, storeId, customerId) : undefined;
  if (tags === undefined) throw validationError([queryDetail('customerId', 'must name a customer of this store')]);
  return tags;
}

/**
 * The resolved price of every variant and simple product of the store's products among `productIds`, in
 * their order (resolve.ts holds the rule). Reads the store's currency, the customer's tags, the items and the
 * active lists of the currency, then the fixed prices of the lists that apply.
 */
export async function resolveProductPrices(
  db: Db,
  storeId: string,
  productIds: string[],
  query: PriceContextQuery & { at?: string },
): Promise<{ rows: ResolvedPrice[]; found: Set<string> }> {
  const currencyOfStore = await storeCurrency(db, storeId);
  const currency = query.currency ?? currencyOfStore;
  const details = currencyDetail(currency, 'currency', 'query');
  if (details.length) throw validationError(details);
  const customerTags = await customerTagsOf(db, storeId, query.customerId);
  const context = { currency, storeCurrency: currencyOfStore, customerTags, at: query.at ? new Date(query.at) : new Date() };
  const [items, lists] = await Promise.all([selectPricedItems(db, storeId, productIds), selectActiveLists(db, storeId, currency)]);
  const resolverLists = lists.map(toResolverList);
  // only the lists that apply have a say: their fixed prices are all that is read
  const applying = applicableLists(resolverLists, context).map((list) => list.id);
  const fixed = await selectFixedPrices(db, storeId, applying, productIds);
  const resolved = resolvePrices(
    items.map((item) => ({ productId: item.product_id, variantId: item.variant_id, price: item.price, comparePrice: item.compare_price })),
    resolverLists,
    fixed.map((row) => ({ listId: row.price_list_id, itemId: row.item_id, price: row.price, comparePrice: row.compare_price })),
    context,
  );
  return { rows: resolved.map(toOutput), found: new Set(items.map((item) => item.product_id)) };
}

/** GET /prices: the ids parsed and checked (1..250, each an id of the store's products), the rows in their order. */
export async function pricesOfProducts(db: Db, storeId: string, query: PricesQuery): Promise<ResolvedPrice[]> {
  const ids = [...new Set(query.productIds.split(',').map((id) => id.trim()))];
  if (ids.length > MAX_PRICED_PRODUCTS) throw validationError([queryDetail('productIds', `at most ${MAX_PRICED_PRODUCTS} products`)]);
  const malformed = ids.filter((id) => !isId(id));
  if (malformed.length) throw validationError([queryDetail('productIds', `not product ids: ${malformed.slice(0, 5).join(', ')}`)]);
  const { rows, found } = await resolveProductPrices(db, storeId, ids, query);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length)
    throw validationError([queryDetail('productIds', `no such products in this store: ${missing.slice(0, 5).join(', ')}`)]);
  const order = new Map(ids.map((id, index) => [id, index]));
  return rows.sort((a, b) => (order.get(a.productId) ?? 0) - (order.get(b.productId) ?? 0));
}
