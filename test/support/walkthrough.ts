import { dataUri, PNG } from './media.fixtures.js';

/**
 * Every resource's operations once, in an order that works on an empty store: create, list (with the
 * filters that take other paths), read, update (an If-Match with the ETag just read), then delete in
 * reverse. `call` may be an in-process app or HTTP through a load balancer; every answer is checked and
 * a failure is listed (the walkthrough goes on), so a test asserts `failures` is empty.
 */

export interface WalkAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: bodies are read field by field
  body: any;
  headers: Record<string, number | string | string[] | undefined> | Headers;
}

export type WalkCall = (method: string, url: string, body?: unknown, headers?: Record<string, string>) => Promise<WalkAnswer>;

export interface Walked {
  failures: string[];
  /** calls made */
  calls: number;
  /** the image URL of a product left in place (uploaded as a data: URI) */
  imageUrl: string;
}

const header = (answer: WalkAnswer, name: string): string | undefined => {
  const value = answer.headers instanceof Headers ? answer.headers.get(name) : answer.headers[name];
  return Array.isArray(value) ? value[0] : value === undefined || value === null ? undefined : String(value);
};

export async function walkThrough(call: WalkCall): Promise<Walked> {
  const failures: string[] = [];
  let calls = 0;
  const expect2xx = async (method: string, url: string, body?: unknown, headers?: Record<string, string>) => {
    calls++;
    const answer = await call(method, url, body, headers);
    if (answer.status < 200 || answer.status >= 300)
      failures.push(`${method} ${url}: ${answer.status} ${JSON.stringify(answer.body?.error ?? answer.body)}`);
    return answer;
  };
  const created = async (url: string, body: unknown): Promise<{ id: string; [key: string]: unknown }> =>
    (await expect2xx('POST', url, body)).body?.data ?? { id: 'missing' };

  const attributeSet = await created('/attribute-sets', { name: 'Apparel' });
  const attribute = await created('/attributes', { name: 'Material', values: ['Cotton'], attributeset: attributeSet.id });
  const collection = await created('/collections', { title: 'Summer' });
  const smart = await created('/collections', {
    title: 'Cheap',
    collectionType: 'smart',
    conditions: [{ field: 'price', operator: 'less_than', value: '100' }],
  });
  const product = await created('/products', {
    title: 'Tee',
    price: 10,
    options: [{ name: 'Size', values: ['S', 'M'] }],
    selectedCollections: [collection.id],
  });
  // kept: its image is read afterwards
  const pictured = await created('/products', { title: 'Pictured', price: 5, images: [dataUri('image/png', PNG)] });
  const variant = (product.variants as { id: string }[] | undefined)?.[0]?.id ?? 'missing';
  const customer = await created('/customers', { userName: 'ada', password: 'long-secret-1', address: { city: 'Paris' } });
  const address = (await expect2xx('GET', `/customers/${customer.id}/addresses`)).body?.data?.[0]?.id ?? 'missing';
  const order = await created('/orders', {
    cartItems: [{ productId: product.id, title: 'Tee', price: 10, quantity: 1 }],
    subTotal: 10,
    totalAmount: 10,
    userId: customer.id,
  });
  const apiKey = await created('/api-keys', { name: 'sync', scopes: ['products:read'] });
  const webhook = await created('/webhooks', { url: 'http://127.0.0.1:9/unused', events: ['order.created'] });

  for (const list of ['/attribute-sets', '/attributes', '/products', '/collections', '/customers', '/orders', '/webhooks', '/jobs'])
    await expect2xx('GET', `${list}?limit=5&search=a`);
  await expect2xx('GET', '/api-keys');
  for (const query of [`collection=${collection.id}`, `collection=${smart.id}`, 'tag=x&vendor=v&productType=t', 'sort=-price&page=2'])
    await expect2xx('GET', `/products?${query}`);
  for (const item of [
    `/attribute-sets/${attributeSet.id}`,
    `/attributes/${attribute.id}`,
    `/products/${product.id}/variants`,
    `/collections/${collection.id}`,
    `/collections/${collection.id}/products`,
    `/collections/${smart.id}/products`,
    `/customers/${customer.id}`,
    `/addresses/${address}`,
    `/orders/${order.id}`,
    `/webhooks/${webhook.id}`,
    `/webhooks/${webhook.id}/deliveries`,
    '/events?limit=50',
  ])
    await expect2xx('GET', item);
  for (const resource of ['products', 'collections', 'attributes', 'attributeSets', 'customers', 'orders'])
    await expect2xx('GET', `/exports/${resource}`);

  // a conditional update with the ETag of the read just before (which may have been answered elsewhere)
  const read = await expect2xx('GET', `/products/${product.id}`);
  await expect2xx(
    'PATCH',
    `/products/${product.id}`,
    { title: 'Tee 2', attributeSet: attributeSet.id },
    { 'if-match': header(read, 'etag') ?? '' },
  );
  for (const [url, body] of [
    [`/attribute-sets/${attributeSet.id}`, { name: 'Apparel 2' }],
    [`/attributes/${attribute.id}`, { name: 'Fabric', values: ['Cotton', 'Linen'] }],
    [`/products/${product.id}/variants/${variant}`, { price: 12 }],
    [`/collections/${collection.id}`, { title: 'Summer 2' }],
    [`/customers/${customer.id}`, { firstName: 'Ada' }],
    [`/addresses/${address}`, { city: 'Lyon' }],
    [`/orders/${order.id}`, { orderStatus: 'shipped', paymentStatus: 'paid' }],
    [`/webhooks/${webhook.id}`, { description: 'orders' }],
  ] as const)
    await expect2xx('PATCH', url, body);
  await expect2xx('POST', `/customers/${customer.id}/addresses`, { city: 'Nice' });
  await expect2xx('POST', `/webhooks/${webhook.id}/replay`, { since: new Date(0).toISOString() });

  for (const url of [
    `/orders/${order.id}`,
    `/addresses/${address}`,
    `/customers/${customer.id}`,
    `/collections/${smart.id}`,
    `/collections/${collection.id}`,
    `/products/${product.id}`,
    `/attributes/${attribute.id}`,
    `/attribute-sets/${attributeSet.id}`,
    `/webhooks/${webhook.id}`,
    `/api-keys/${apiKey.id}`,
  ])
    await expect2xx('DELETE', url);
  return { failures, calls, imageUrl: (pictured.image as string[] | undefined)?.[0] ?? '' };
}
