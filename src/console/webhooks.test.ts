import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, setupTestApp, type TestContext, testDatabaseUrl } from '../../test/helpers.js';
import { type ConsoleClient, signIn } from '../../test/support/console.fixtures.js';
import { receiver } from '../../test/support/webhook-receiver.js';

// The Webhooks screen through app.inject: create, the deliveries, each attempt escaped, Retry, Send test,
// disable, replay, delete; another store's ids are "not found"; a POST without the CSRF token changes nothing.
let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp({
    webhookWorker: true,
    webhookAllowPrivate: true,
    webhookRetrySchedule: [0.05],
    webhookTimeoutMs: 2000,
    databaseUrl: engine === 'postgres' ? testDatabaseUrl() : null,
  });
});
afterAll(() => t.close());

const HOSTILE = '<img src=x onerror=alert(1)>';

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function createWebhook(client: ConsoleClient, url: string) {
  const created = await client.post('/console/webhooks', { _csrf: client.csrf, url, events: '*', description: HOSTILE });
  expect(created.status).toBe(201);
  expect(created.body).toMatch(/value="whsec_/);
  return /href="\/console\/webhooks\/([0-9a-f]{24})"/.exec(created.body)?.[1] as string;
}

describe('the Webhooks screen', () => {
  it('creates a webhook, shows a failed delivery attempt by attempt (escaped), and Retry makes it succeed', async () => {
    const store = await t.newStore();
    const client = await signIn(t.app, store);
    let healthy = false;
    const hook = await receiver(() => (healthy ? 200 : { status: 500, body: HOSTILE }));
    const id = await createWebhook(client, hook.url);
    const list = await client.get('/console/webhooks');
    expect(list.status).toBe(200);
    expect(list.body).toContain(hook.url);
    expect(list.body).not.toContain(HOSTILE);
    expect(list.body).toContain('&#60;img src');

    await t.call(store, 'POST', '/products', { title: 'Tee' });
    const page = await until(
      () => client.get(`/console/webhooks/${id}?status=failed`),
      (p) => /deliveries\/[0-9a-f]{24}"/.test(p.body),
    );
    const deliveryId = /deliveries\/([0-9a-f]{24})"/.exec(page.body)?.[1];
    const delivery = await client.get(`/console/webhooks/${id}/deliveries/${deliveryId}`);
    expect(delivery.status).toBe(200);
    expect(delivery.body).toContain('data-status="failed"');
    expect(delivery.body.match(/<td>500<\/td>/g)).toHaveLength(2);
    expect(delivery.body).not.toContain(HOSTILE);
    expect(delivery.body).toContain('&#60;img src&#61;x onerror');
    expect(delivery.body).toContain('>Retry</button>');

    healthy = true;
    const retried = await client.post(`/console/webhooks/${id}/deliveries/${deliveryId}/retry`, { _csrf: client.csrf });
    expect(retried.status).toBe(303);
    const done = await until(
      () => client.get(`/console/webhooks/${id}/deliveries/${deliveryId}`),
      (p) => p.body.includes('data-status="succeeded"'),
    );
    expect(done.body).toContain('<td>200</td>');
    await hook.close();
  });

  it('sends a test, disables, replays and deletes', async () => {
    const store = await t.newStore();
    const client = await signIn(t.app, store);
    const hook = await receiver();
    const id = await createWebhook(client, hook.url);
    const test = await client.post(`/console/webhooks/${id}/test`, { _csrf: client.csrf });
    expect(test.status).toBe(303);
    expect(test.headers.location).toMatch(new RegExp(`^/console/webhooks/${id}/deliveries/[0-9a-f]{24}$`));
    await until(
      async () => hook.hits.length,
      (n) => n > 0,
    );
    const replay = await client.post(`/console/webhooks/${id}/replay`, { _csrf: client.csrf, since: '2020-01-01T00:00' });
    expect(replay.status).toBe(202);
    expect(replay.body).toContain('events will be delivered again');
    expect((await client.post(`/console/webhooks/${id}/enabled`, { _csrf: client.csrf, enabled: 'false' })).status).toBe(303);
    expect((await t.call(store, 'GET', `/webhooks/${id}`)).body.data.enabled).toBe(false);
    expect((await client.post(`/console/webhooks/${id}/edit`, { _csrf: client.csrf, url: hook.url, events: 'order.created' })).status).toBe(
      303,
    );
    expect((await t.call(store, 'GET', `/webhooks/${id}`)).body.data.events).toEqual(['order.created']);
    expect((await client.post(`/console/webhooks/${id}/delete`, { _csrf: client.csrf })).status).toBe(303);
    expect((await t.call(store, 'GET', `/webhooks/${id}`)).status).toBe(404);
    await hook.close();
  });

  it("answers not found for another store's webhook and delivery; a POST without the CSRF token changes nothing", async () => {
    const a = await t.newStore();
    const b = await t.newStore();
    const clientA = await signIn(t.app, a);
    const clientB = await signIn(t.app, b);
    const id = await createWebhook(clientA, 'http://127.0.0.1:9/hook');
    const test = await clientA.post(`/console/webhooks/${id}/test`, { _csrf: clientA.csrf });
    expect((await clientB.get(`/console/webhooks/${id}`)).status).toBe(404);
    expect((await clientB.get(test.headers.location as string)).status).toBe(404);
    expect((await clientB.post(`/console/webhooks/${id}/delete`, { _csrf: clientB.csrf })).status).toBe(404);
    expect((await clientA.post(`/console/webhooks/${id}/delete`, {})).status).toBe(403);
    expect((await t.call(a, 'GET', `/webhooks/${id}`)).status).toBe(200);
  });
});
