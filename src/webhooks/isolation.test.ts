import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, setupTestApp, type TestContext, testDatabaseUrl } from '../../test/helpers.js';
import { apiKey } from '../../test/support/collections.fixtures.js';
import { MAX_WEBHOOKS_PER_STORE } from './webhooks.service.js';

// No worker: these tests are about what the API accepts and what a write pays, not about sending.
let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp({
    webhookWorker: false,
    webhookAllowPrivate: true,
    databaseUrl: engine === 'postgres' ? testDatabaseUrl() : null,
  });
});
afterAll(() => t.close());

const hook = (events: string[]) => ({ url: 'https://hooks.example.test/in', events });

describe('a webhook receives only what its creator may read', () => {
  it.each([
    [['products:read'], ['product.created', 'product.deleted'], 201],
    [['collections:read'], ['collection.updated'], 201],
    [['attributes:read'], ['attribute.created', 'attributeSet.deleted'], 201],
    [['customers:read'], ['customer.created', 'address.updated'], 201],
    [['orders:read'], ['order.created'], 201],
    [[], ['customer.created'], 403],
    [[], ['order.created'], 403],
    [['products:read'], ['product.created', 'order.created'], 403],
    [['orders:read'], ['address.created'], 403],
    [['products:read', 'orders:read'], ['*'], 403],
    [['products:read', 'collections:read', 'attributes:read', 'customers:read', 'orders:read'], ['*'], 201],
  ])('a key with webhooks:write and %j subscribing to %j: %i', async (reads, events, status) => {
    const store = await t.newStore();
    const key = await apiKey(t, store, ['webhooks:write', ...reads]);
    const reply = await t.call(key, 'POST', '/webhooks', hook(events));
    expect(reply.status, JSON.stringify(reply.body)).toBe(status);
    if (status === 403) {
      expect(reply.body.error.code).toBe('FORBIDDEN');
      expect(await t.database.db.selectFrom('webhooks').select('id').where('store_id', '=', store.id).execute()).toEqual([]);
    }
  });

  it('holds on PATCH: new types, a new URL or turning it on need the read scopes of what it then receives', async () => {
    const store = await t.newStore();
    const created = await t.call(store, 'POST', '/webhooks', hook(['customer.created']));
    const { id } = created.body.data;
    const products = await apiKey(t, store, ['webhooks:write', 'products:read']);
    expect((await t.call(products, 'PATCH', `/webhooks/${id}`, { events: ['order.created'] })).status).toBe(403);
    expect((await t.call(products, 'PATCH', `/webhooks/${id}`, { url: 'https://mine.example.test/' })).status).toBe(403);
    expect((await t.call(products, 'PATCH', `/webhooks/${id}`, { enabled: true })).status).toBe(403);
    // Nothing changed; what the key may read it may subscribe to; a description is not what is sent.
    expect((await t.call(store, 'GET', `/webhooks/${id}`)).body.data).toMatchObject({
      url: 'https://hooks.example.test/in',
      events: ['customer.created'],
    });
    expect((await t.call(products, 'PATCH', `/webhooks/${id}`, { description: 'ERP' })).status).toBe(200);
    expect((await t.call(products, 'PATCH', `/webhooks/${id}`, { events: ['product.updated'] })).status).toBe(200);
    expect((await t.call(products, 'PATCH', `/webhooks/${id}`, { url: 'https://mine.example.test/' })).status).toBe(200);
  });
});

describe('limits', () => {
  it(`a store has at most ${MAX_WEBHOOKS_PER_STORE} webhooks: the next is a 400, another store is not affected`, async () => {
    const store = await t.newStore();
    // Made in bulk (the API path of each is tested elsewhere), then the last ones through the API, at once.
    const values = Array.from({ length: MAX_WEBHOOKS_PER_STORE - 2 }, (_, i) => ({
      store_id: store.id,
      id: `${String(i).padStart(8, '0')}${'0'.repeat(16)}`,
      url: 'https://hooks.example.test/bulk',
      events: ['*'],
      secret: 'whsec_x',
    }));
    await t.database.db.insertInto('webhooks').values(values).execute();
    const replies = await Promise.all(Array.from({ length: 4 }, () => t.call(store, 'POST', '/webhooks', hook(['*']))));
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 201, 400, 400]);
    const refused = replies.find((reply) => reply.status === 400);
    expect(refused?.body.error.details[0]).toMatchObject({ field: 'url' });
    expect(refused?.body.error.details[0].message).toMatch(/at most 100 webhooks/);
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM webhooks WHERE store_id = ${store.id}`.execute(t.database.db);
    expect(Number(rows[0].n)).toBe(MAX_WEBHOOKS_PER_STORE);
    const other = await t.newStore();
    expect((await t.call(other, 'POST', '/webhooks', hook(['*']))).status).toBe(201);
  });

  it('/test on a disabled webhook is a 400 naming enabled, and queues nothing', async () => {
    const store = await t.newStore();
    const { id } = (await t.call(store, 'POST', '/webhooks', hook(['*']))).body.data;
    await t.call(store, 'PATCH', `/webhooks/${id}`, { enabled: false });
    const reply = await t.call(store, 'POST', `/webhooks/${id}/test`);
    expect(reply.status).toBe(400);
    expect(reply.body.error.details[0]).toMatchObject({ field: 'enabled' });
    expect((await t.call(store, 'GET', `/webhooks/${id}/deliveries`)).body.data).toEqual([]);
    await t.call(store, 'PATCH', `/webhooks/${id}`, { enabled: true });
    expect((await t.call(store, 'POST', `/webhooks/${id}/test`)).status).toBe(202);
  });
});
