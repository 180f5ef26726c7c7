import type { TestContext, TestStore } from '../helpers.js';

/** One record of every kind in a store, for tests that need ids to aim at (not a test file itself). */
export interface StoreRecords {
  attributeSet: string;
  attribute: string;
  product: string;
  variant: string;
  collection: string;
  smartCollection: string;
  customer: string;
  address: string;
  order: string;
  apiKey: string;
  /** the key itself (products:read), shown only when created */
  apiKeyValue: string;
}

async function created(t: TestContext, store: TestStore, url: string, body: unknown): Promise<{ id: string; [key: string]: unknown }> {
  const reply = await t.call(store, 'POST', url, body);
  if (reply.status !== 201) throw new Error(`POST ${url}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.data;
}

export async function seedRecords(t: TestContext, store: TestStore): Promise<StoreRecords> {
  const attributeSet = await created(t, store, '/attribute-sets', { name: 'Apparel' });
  const attribute = await created(t, store, '/attributes', { name: 'Material', values: ['Cotton'], attributeset: attributeSet.id });
  const collection = await created(t, store, '/collections', { title: 'Summer' });
  const smartCollection = await created(t, store, '/collections', {
    title: 'Cheap',
    collectionType: 'smart',
    conditions: [{ field: 'price', operator: 'less_than', value: '100' }],
  });
  const product = await created(t, store, '/products', {
    title: 'Tee',
    price: 10,
    options: [{ name: 'Size', values: ['S', 'M'] }],
    selectedCollections: [collection.id],
  });
  const customer = await created(t, store, '/customers', { userName: 'ada', password: 'long-secret-1', address: { city: 'Paris' } });
  const addresses = await t.call(store, 'GET', `/customers/${customer.id}/addresses`);
  const order = await created(t, store, '/orders', {
    cartItems: [{ productId: product.id, title: 'Tee', price: 10, quantity: 1 }],
    subTotal: 10,
    totalAmount: 10,
  });
  const apiKey = await created(t, store, '/api-keys', { name: 'sync', scopes: ['products:read'] });
  return {
    attributeSet: attributeSet.id,
    attribute: attribute.id,
    product: product.id,
    variant: (product.variants as { id: string }[])[0].id,
    collection: collection.id,
    smartCollection: smartCollection.id,
    customer: customer.id,
    address: addresses.body.data[0].id,
    order: order.id,
    apiKey: apiKey.id,
    apiKeyValue: apiKey.key as string,
  };
}
