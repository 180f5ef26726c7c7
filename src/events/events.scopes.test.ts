import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { feedOf, settled } from '../../test/support/feed.fixtures.js';
import { ALL_SCOPES, EVENT_TYPES, hasScope, readScopeOfEventType } from '../shared/index.js';
import { claimReplays } from '../webhooks/replays.sql.js';

/**
 * A scope means what it says on every path to the data: the feed shows a credential only the events of
 * resources it may read (`types=` naming another is a 403), an export is its resource's read scope, and a
 * webhook subscribes only to types its creator may read, so it never delivers a record its creator could
 * not read (src/webhooks/isolation.test.ts has the fixed cases).
 */

let t: TestContext;
let store: TestStore;
beforeAll(async () => {
  // webhooks are created, never sent (no worker): their URL is not resolved
  t = await setupTestApp({ webhookAllowPrivate: true });
  store = await t.newStore();
  await seed(store);
  await settled(t);
});
afterAll(() => t.close());

const { body } = feedOf(() => t);

/** One event of every kind of record: what each scope may or may not see. */
async function seed(into: TestStore): Promise<void> {
  await body(into, 'POST', '/attribute-sets', { name: 'Apparel' });
  await body(into, 'POST', '/attributes', { name: 'Material', values: ['Cotton'] });
  await body(into, 'POST', '/collections', { title: 'Summer' });
  await body(into, 'POST', '/products', { title: 'Tee', price: 10 });
  await body(into, 'POST', '/price-lists', { name: 'EU', currency: 'EUR' });
  const customer = await body(into, 'POST', '/customers', { userName: 'ada', password: 'long-secret-1' });
  await body(into, 'POST', `/customers/${customer.id}/addresses`, { city: 'Paris' });
  await body(into, 'POST', '/orders', {
    cartItems: [{ productId: 'p1', title: 'Tee', price: 10, quantity: 1 }],
    subTotal: 10,
    totalAmount: 10,
  });
}

async function keyWith(scopes: readonly string[]): Promise<string> {
  return (await body(store, 'POST', '/api-keys', { name: 'scoped', scopes })).key;
}

async function feedTypes(credential: string, query = ''): Promise<string[]> {
  await settled(t);
  const reply = await t.call(credential, 'GET', `/events?limit=250${query}`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.data.map((event: { type: string }) => event.type);
}

const mayReadAll = (mayRead: (type: string) => boolean, events: readonly string[]) =>
  (events.includes('*') ? EVENT_TYPES : events).every(mayRead);

/**
 * A webhook made by the key: created only when the key may read every type it names, and then its
 * deliveries (a replay of the whole feed) are only of those types; widening it past the key's reads is a 403.
 */
async function checkWebhook(key: string, scopes: readonly string[], events: readonly string[]): Promise<void> {
  const mayRead = (type: string) => hasScope(scopes, readScopeOfEventType(type));
  const created = await t.call(key, 'POST', '/webhooks', { url: 'https://hooks.example.test/in', events });
  if (!hasScope(scopes, 'webhooks:write') || !mayReadAll(mayRead, events)) {
    expectError(created, 403, 'FORBIDDEN');
    return;
  }
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const { id } = created.body.data;
  const replay = await t.call(key, 'POST', `/webhooks/${id}/replay`, { since: '2000-01-01T00:00:00Z' });
  expect(replay.status, JSON.stringify(replay.body)).toBe(202);
  // the events a worker would send of it, claimed here (no worker in this file)
  const claimed = await claimReplays(t.database.db, 100, 500, 600);
  const types = claimed.filter((replay) => replay.webhook_id === id).flatMap((replay) => replay.events.map((event) => event.type));
  expect(types.filter((type) => !mayRead(type))).toEqual([]);
  // every subscribed kind has its one event in the store: none is withheld either
  const subscribed = EVENT_TYPES.filter((type) => type.endsWith('.created') && (events.includes('*') || events.includes(type)));
  expect(types.sort()).toEqual([...subscribed].sort());
  expect(replay.body.data.queued).toBe(subscribed.length);
  const widened = await t.call(key, 'PATCH', `/webhooks/${id}`, { events: ['*'] });
  if (mayReadAll(mayRead, ['*'])) expect(widened.status).toBe(200);
  else expectError(widened, 403, 'FORBIDDEN');
  expect((await t.call(store, 'DELETE', `/webhooks/${id}`)).status).toBe(200);
}

const EXPORTS: [string, string][] = [
  ['products', 'products:read'],
  ['collections', 'collections:read'],
  ['attributes', 'attributes:read'],
  ['attributeSets', 'attributes:read'],
  ['customers', 'customers:read'],
  ['orders', 'orders:read'],
];

describe('the feed shows only what the credential may read', () => {
  it('a key with events:read and products:read sees product and price list events only', async () => {
    const key = await keyWith(['events:read', 'products:read']);
    expect(new Set(await feedTypes(key))).toEqual(new Set(['product.created', 'priceList.created']));
    expect(await feedTypes(store.token)).toHaveLength(8);
  });

  it('a key with events:read alone sees no event, and customers:read brings customers and addresses', async () => {
    expect(await feedTypes(await keyWith(['events:read']))).toEqual([]);
    const customers = await feedTypes(await keyWith(['events:read', 'customers:read']));
    expect(customers.sort()).toEqual(['address.created', 'customer.created']);
    const attributes = await feedTypes(await keyWith(['events:read', 'attributes:read']));
    expect(attributes.sort()).toEqual(['attribute.created', 'attributeSet.created']);
  });

  it('types= naming a type the key may not read is a 403 naming the scope; its own types are a 200', async () => {
    const key = await keyWith(['events:read', 'products:read']);
    const error = expectError(await t.call(key, 'GET', '/events?types=customer.created'), 403, 'FORBIDDEN');
    expect(error.message).toContain('customers:read');
    expectError(await t.call(key, 'GET', '/events?types=product.created,order.created&wait=1'), 403, 'FORBIDDEN');
    expect(await feedTypes(key, '&types=product.created,product.updated')).toEqual(['product.created']);
  });

  it('property: no key reads through the feed, an export or a webhook what its scopes do not grant', async () => {
    await fc.assert(
      fc.asyncProperty(fc.subarray(ALL_SCOPES, { minLength: 1 }), fc.subarray([...EVENT_TYPES]), async (scopes, asked) => {
        const key = await keyWith(scopes);
        const feed = hasScope(scopes, 'events:read');
        const mayRead = (type: string) => hasScope(scopes, readScopeOfEventType(type));

        const all = await t.call(key, 'GET', '/events?limit=250');
        if (!feed) expectError(all, 403, 'FORBIDDEN');
        else {
          const types: string[] = all.body.data.map((event: { type: string }) => event.type);
          expect(types.filter((type) => !mayRead(type))).toEqual([]);
          // and nothing it may read is withheld (every kind has one event in the store)
          expect(types.length).toBe(EVENT_TYPES.filter((type) => type.endsWith('.created') && mayRead(type)).length);
        }

        if (asked.length) {
          const filtered = await t.call(key, 'GET', `/events?limit=250&types=${asked.join(',')}`);
          if (!feed || !asked.every(mayRead)) expectError(filtered, 403, 'FORBIDDEN');
          else expect(filtered.body.data.every((event: { type: string }) => (asked as string[]).includes(event.type))).toBe(true);
        }

        for (const [resource, scope] of EXPORTS) {
          const exported = await t.call(key, 'GET', `/exports/${resource}`);
          if (hasScope(scopes, scope)) expect(exported.status, `${resource} with ${scopes}`).toBe(200);
          else expectError(exported, 403, 'FORBIDDEN');
        }

        await checkWebhook(key, scopes, asked.length ? asked : ['*']);
      }),
      { numRuns: 25 },
    );
  });
});
