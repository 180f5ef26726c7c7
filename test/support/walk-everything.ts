import type { TestContext, TestStore } from '../helpers.js';
import { settled } from './feed.fixtures.js';
import { postImport } from './jobs.fixtures.js';
import { walkThrough } from './walkthrough.js';

/**
 * Every operation of a store, in-process: the walkthrough of every resource (walkthrough.ts), locations
 * and stock levels, price lists and resolved prices, a write replayed by its Idempotency-Key, then what runs behind the requests: webhook deliveries made from the feed, sent and recorded by the worker
 * (the app must run one, to `hookUrl`), tested, replayed and retried; an import run by `runJobs`, another
 * cancelled. Returns every answer that was not a success (a walk that failed proves nothing).
 */
export async function walkEverything(
  t: TestContext,
  store: TestStore,
  options: { hookUrl: string; runJobs: () => Promise<void> },
): Promise<string[]> {
  const failures: string[] = [];
  const call = async (method: string, url: string, body?: unknown) => {
    const reply = await t.call(store, method, url, body);
    if (reply.status >= 300) failures.push(`${method} ${url}: ${reply.status} ${JSON.stringify(reply.body?.error ?? reply.body)}`);
    return reply;
  };
  const login = await t.call(null, 'POST', '/auth', { storeSlug: store.slug, email: store.email, password: store.password });
  if (login.status !== 200) failures.push(`POST /auth: ${login.status}`);
  const walked = await walkThrough((method, url, body, headers) => t.call(store, method, url, body, headers));
  failures.push(...walked.failures);

  // locations and their stock levels; a write under an Idempotency-Key, then its replay
  const home = (await call('GET', '/locations')).body.data?.[0]?.id;
  const shop = (await call('POST', '/locations', { name: 'Shop' })).body.data?.id;
  const mug = (await call('POST', '/products', { title: 'Mug', price: 3, totalStock: 1 })).body.data;
  await call('POST', '/inventory-levels/set', { items: [{ productId: mug?.id, locationId: shop, available: 2 }] });
  const adjust = { items: [{ productId: mug?.id, locationId: home, delta: 1 }] };
  const key = { 'idempotency-key': `walk-${store.id}` };
  for (let times = 0; times < 2; times++) {
    const reply = await t.call(store, 'POST', '/inventory-levels/adjust', adjust, key);
    if (reply.status !== 200) failures.push(`POST /inventory-levels/adjust: ${reply.status} ${JSON.stringify(reply.body?.error)}`);
  }
  await call('GET', `/inventory-levels?productId=${mug?.id}`);
  await call('GET', `/inventory-levels?locationId=${shop}`);
  await call('POST', '/inventory-levels/set', { items: [{ productId: mug?.id, locationId: shop, available: 0 }] });
  await call('PATCH', `/locations/${shop}`, { name: 'Shop 1' });
  await call('DELETE', `/locations/${shop}`);

  // price lists, their fixed prices, and the prices resolved from them (CONTRACT §14)
  const list = (await call('POST', '/price-lists', { name: 'EU', currency: 'EUR' })).body.data;
  await call('PUT', `/price-lists/${list?.id}/prices`, { items: [{ productId: mug?.id, price: 2.5 }] });
  await call('GET', `/price-lists/${list?.id}/prices`);
  await call('GET', `/prices?productIds=${mug?.id}&currency=EUR`);
  await call('GET', `/products/${mug?.id}?currency=EUR`);
  await call('PATCH', `/price-lists/${list?.id}`, { status: 'draft' });
  await call('POST', `/price-lists/${list?.id}/prices/delete`, { items: [{ productId: mug?.id }] });

  const hook = (await call('POST', '/webhooks', { url: options.hookUrl, events: ['*'] })).body.data;
  await call('POST', '/products', { title: 'Announced', price: 1 });
  await call('PATCH', `/webhooks/${hook.id}`, { description: 'all of it' });
  await call('POST', `/webhooks/${hook.id}/test`);
  await call('POST', `/webhooks/${hook.id}/replay`, { since: new Date(0).toISOString() });
  await settled(t);
  let deliveries: { id: string; status: string }[] = [];
  for (let waited = 0; waited < 30_000 && !deliveries.some((d) => d.status === 'succeeded'); waited += 200) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    deliveries = (await call('GET', `/webhooks/${hook.id}/deliveries`)).body.data;
  }
  if (!deliveries.some((d) => d.status === 'succeeded')) failures.push('no webhook delivery succeeded in 30 s');
  await call('POST', `/webhooks/${hook.id}/deliveries/${deliveries[0]?.id}/retry`);

  const imported = await postImport(t, store, 'products', [{ title: 'Imported', handle: 'imported-1', price: 2 }, { title: '' }]);
  await options.runJobs();
  const job = await call('GET', `/jobs/${imported.body.data.id}`);
  if (job.body.data?.status !== 'succeeded') failures.push(`the import ended ${job.body.data?.status}`);
  await call('GET', `/jobs/${imported.body.data.id}/errors`);
  const cancelled = await postImport(t, store, 'customers', [{ userName: 'grace' }]);
  await call('POST', `/jobs/${cancelled.body.data.id}/cancel`);
  return failures;
}
