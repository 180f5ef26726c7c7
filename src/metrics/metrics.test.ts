import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext } from '../../test/helpers.js';
import { postImport, runStoreJobs } from '../../test/support/jobs.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const scrape = (remoteAddress = '127.0.0.1', headers: Record<string, string> = {}, app = t.app) =>
  app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });

const promtool = spawnSync('promtool', ['--version']).status === 0;
if (!promtool) console.warn('metrics.test.ts: promtool not found (Debian package prometheus): the lint of the output is skipped');

describe('GET /metrics', () => {
  it('counts requests by route template and status, never by id, with the database state', async () => {
    const store = await t.newStore();
    const created = await t.call(store, 'POST', '/products', { title: 'Metered', price: 1 });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect((await t.call(store, 'GET', `/products/${id}`)).status).toBe(200);
    expect((await t.call(store, 'GET', '/products/0123456789abcdef01234567')).status).toBe(404);
    const posted = await postImport(t, store, 'products', [{ title: 'Imported', handle: 'imported-1' }, { title: '' }]);
    expect(posted.status).toBe(202);
    const queued = await scrape();
    expect(queued.body).toMatch(/^storefront_jobs\{state="queued"\} [1-9]/m);
    await runStoreJobs(t, store);

    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(text).toMatch(/^storefront_http_requests_total\{method="GET",route="\/api\/v1\/products\/:id",status="200"\} [1-9]/m);
    expect(text).toMatch(/^storefront_http_requests_total\{method="GET",route="\/api\/v1\/products\/:id",status="404"\} [1-9]/m);
    expect(text).toMatch(
      /^storefront_http_request_duration_seconds_bucket\{le="\+Inf",method="POST",route="\/api\/v1\/products",status="201"\} [1-9]/m,
    );
    expect(text).toMatch(/^storefront_events_newest_age_seconds \d/m);
    expect(text).toMatch(/^storefront_webhook_deliveries\{state="pending"\} \d+/m);
    expect(text).toMatch(/^storefront_webhook_oldest_pending_age_seconds \d/m);
    expect(text).toMatch(/^storefront_import_lines_processed_total \d/m);
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    if (t.database.engine === 'postgres') expect(text).toMatch(/^storefront_db_pool_connections\{state="total"\} [1-9]/m);
    // no ids, no store data in any label
    for (const secret of [id, store.id, store.slug, 'Metered', '0123456789abcdef01234567']) expect(text).not.toContain(secret);
  });

  it('counts webhook attempts by outcome, with their durations', async () => {
    const worked = await setupTestApp({
      webhookWorker: true,
      webhookAllowPrivate: true,
      webhookTimeoutMs: 5000,
      webhookRetrySchedule: [3600],
    });
    // one receiver path answers 204, the other 500: one attempt of each outcome
    const receiver = createServer((request, response) => {
      request.resume().on('end', () => response.writeHead(request.url === '/ok' ? 204 : 500).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
    try {
      const store = await worked.newStore();
      for (const path of ['/ok', '/broken'])
        expect((await worked.call(store, 'POST', '/webhooks', { url: `${base}${path}`, events: ['product.created'] })).status).toBe(201);
      expect((await worked.call(store, 'POST', '/products', { title: 'Announced', price: 1 })).status).toBe(201);
      const count = (text: string, outcome: string) =>
        Number(new RegExp(`^storefront_webhook_attempts_total\\{outcome="${outcome}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? -1);
      let text = '';
      for (let waited = 0; waited < 30_000 && (count(text, 'succeeded') < 1 || count(text, 'failed') < 1); waited += 200) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        text = (await scrape('127.0.0.1', {}, worked.app)).body;
      }
      expect([count(text, 'succeeded'), count(text, 'failed'), count(text, 'timeout'), count(text, 'error')]).toEqual([1, 1, 0, 0]);
      expect(text).toMatch(/^storefront_webhook_attempt_duration_seconds_count\{outcome="succeeded"\} 1$/m);
      expect(text).toMatch(/^storefront_webhook_attempt_duration_seconds_bucket\{le="30",outcome="failed"\} 1$/m);
    } finally {
      await worked.close();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it.skipIf(!promtool)('passes `promtool check metrics`', async () => {
    const res = await scrape();
    const lint = spawnSync('promtool', ['check', 'metrics'], { input: res.body, encoding: 'utf8' });
    expect(`${lint.stdout}${lint.stderr}`.trim()).toBe('');
    expect(lint.status).toBe(0);
  });

  it('answers only loopback addresses by default', async () => {
    expect((await scrape('127.0.0.1')).statusCode).toBe(200);
    expect((await scrape('::1')).statusCode).toBe(200);
    const refused = await scrape('10.1.2.3');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('FORBIDDEN');
  });

  it('answers everyone with STOREFRONT_METRICS_PUBLIC, and only the token holder with STOREFRONT_METRICS_TOKEN', async () => {
    const open = await setupTestApp({ metricsPublic: true });
    const token = 'metrics-token-0123456789';
    const locked = await setupTestApp({ metricsToken: token });
    try {
      expect((await scrape('10.1.2.3', {}, open.app)).statusCode).toBe(200);
      expect((await scrape('127.0.0.1', {}, locked.app)).statusCode).toBe(401);
      expect((await scrape('10.1.2.3', { authorization: 'Bearer wrong-token-0123456789' }, locked.app)).statusCode).toBe(401);
      expect((await scrape('10.1.2.3', { authorization: `Bearer ${token}` }, locked.app)).statusCode).toBe(200);
      // the scheme in any case (RFC 9110 §11.1)
      for (const scheme of ['bearer', 'BEARER', 'bEaReR']) {
        expect((await scrape('10.1.2.3', { authorization: `${scheme} ${token}` }, locked.app)).statusCode, scheme).toBe(200);
      }
      expect((await scrape('10.1.2.3', { authorization: `Basic ${token}` }, locked.app)).statusCode).toBe(401);
    } finally {
      await open.close();
      await locked.close();
    }
    // two apps of their own: on a loaded machine the embedded engine takes a while to start each
  }, 180_000);
});
