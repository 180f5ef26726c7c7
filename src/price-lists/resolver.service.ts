import type { Db } from '../db/index.js';
import { type ErrorDetail, validationError } from '../errors.js';
import { batchedRead } from '../reads/index.js';
import { currencyDetail, isId } from '../shared/index.js';
import { type ResolvedPrice as ResolvedRow, type ResolverList, resolvePrices } from './resolve.js';
import { MAX_PRICED_PRODUCTS, type PriceContextQuery, type PricesQuery, type ResolvedPrice } from './resolver.schema.js';
import { type FixedTuple, type ItemTuple, type ListTuple, type PricingRow, selectPricing } from './resolver.sql.js';

const queryDetail = (field: string, message: string): ErrorDetail => ({ field, in: 'query', message });
const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

function toResolverList([
  id,
  currency,
  status,
  startsAt,
  endsAt,
  customerTags,
  adjustmentType,
  adjustmentValue,
  createdAt,
]: ListTuple): ResolverList {
  const adjustment =
    adjustmentType && adjustmentValue !== null
      ? { type: adjustmentType as 'percentageDecrease' | 'percentageIncrease', value: adjustmentValue }
      : null;
  return {
    id,
    currency,
    status,
    startsAt: dateOrNull(startsAt),
    endsAt: dateOrNull(endsAt),
    customerTags,
    adjustment,
    createdAt: new Date(createdAt),
  };
}

/** The amounts leave as JSON numbers (the decimal text's own spelling, as products' prices do). */
const toOutput = (row: ResolvedRow): ResolvedPrice => ({
  productId: row.productId,
  variantId: row.variantId,
  currency: row.currency,
  price: row.price === null ? null : Number(row.price),
  comparePrice: row.comparePrice === null ? null : Number(row.comparePrice),
  priceListId: row.priceListId,
  basis: row.basis,
});

/** The query's currency and customer, checked before anything is read (400 naming the field). */
function checkContext(query: PriceContextQuery): void {
  const details = query.currency === undefined ? [] : currencyDetail(query.currency, 'currency', 'query');
  if (details.length) throw validationError(details);
  if (query.customerId !== undefined && !isId(query.customerId)) throw unknownCustomer();
}

const unknownCustomer = () => validationError([queryDetail('customerId', 'must name a customer of this store')]);

/** What the statement read, resolved for the query's instant (resolve.ts holds the rule). */
function resolveRead(pricing: PricingRow, query: PriceContextQuery & { at?: string }): ResolvedPrice[] {
  if (query.customerId !== undefined && pricing.customer_tags === null) throw unknownCustomer();
  const context = {
    currency: pricing.currency,
    storeCurrency: pricing.store_currency,
    customerTags: pricing.customer_tags,
    at: query.at ? new Date(query.at) : new Date(),
  };
  const resolved = resolvePrices(
    pricing.items.map(([productId, variantId, price, comparePrice]) => ({ productId, variantId, price, comparePrice })),
    pricing.lists.map(toResolverList),
    pricing.fixed.map(([listId, itemId, , price, comparePrice]) => ({ listId, itemId, price, comparePrice })),
    context,
  );
  return resolved.map(toOutput);
}

/**
 * The resolved price of every variant and simple product of the store's products among `productIds`, in
 * their order, from one statement (resolver.sql.ts): the store's currency, the customer's tags, the items,
 * the active lists of the currency and their fixed prices.
 */
async function resolveProductPrices(
  db: Db,
  storeId: string,
  productIds: string[],
  query: PriceContextQuery & { at?: string },
): Promise<{ rows: ResolvedPrice[]; found: Set<string> }> {
  checkContext(query);
  const pricing = await selectPricing(db, storeId, { productIds, currency: query.currency, customerId: query.customerId });
  return { rows: resolveRead(pricing, query), found: new Set(pricing.items.map((item) => item[0])) };
}

/**
 * The resolved prices of one product's variants (or of the simple product), for GET /products/{id}: its
 * statement is the batch of the store's priced GETs of the same currency and buyer made in the same turn
 * (src/reads/batched-reads.ts), as the product's document is its store's batch of GETs.
 */
export async function resolvedPricesOfProduct(
  db: Db,
  storeId: string,
  productId: string,
  query: PriceContextQuery,
): Promise<ResolvedPrice[]> {
  checkContext(query);
  const { currency, customerId } = query;
  const read = (productIds: string[]) => selectPricing(db, storeId, { productIds, currency, customerId });
  const pricing = db.isTransaction
    ? await read([productId])
    : await batchedRead(db, `pricing ${storeId} ${currency ?? ''} ${customerId ?? ''}`, productId, async (ids) =>
        pricingByProduct(await read([...ids]), ids),
      );
  return pricing ? resolveRead(pricing, query) : [];
}

/** A batch's statement split by product: each its own items and fixed prices, the rest shared. */
function pricingByProduct(pricing: PricingRow, productIds: readonly string[]): Map<string, PricingRow> {
  const byProduct = new Map(productIds.map((id) => [id, { ...pricing, items: [] as ItemTuple[], fixed: [] as FixedTuple[] }]));
  for (const item of pricing.items) byProduct.get(item[0])?.items.push(item);
  for (const fixed of pricing.fixed) byProduct.get(fixed[2])?.fixed.push(fixed);
  return byProduct;
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
  // each product's items in the variants' order (the statement's), the products in the order asked
  const byProduct = new Map<string, ResolvedPrice[]>();
  for (const row of rows) {
    const items = byProduct.get(row.productId);
    if (items) items.push(row);
    else byProduct.set(row.productId, [row]);
  }
  return ids.flatMap((id) => byProduct.get(id) ?? []);
}
