import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext } from '../../test/helpers.js';
import { buildApp } from '../app.js';
import type { App } from '../http/index.js';
import { type RequestLog, startRequestLog } from '../request-log/index.js';
import { newId } from '../shared/index.js';

/** The Requests log's rows written and dropped, on /metrics (an app whose log holds at most 3 rows and writes when told). */

let t: TestContext;
let log: RequestLog;
let app: App;
beforeAll(async () => {
  t = await setupTestApp();
  log = startRequestLog(t.database.db, 7, { debug() {}, warn() {} }, { flushMs: 3_600_000, maxBuffered: 3 });
  app = await buildApp({ config: { ...t.config, requestLog: true }, database: t.database, requestLog: log, redisPrefix: `rm-${newId()}:` });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await t.close();
});

const counter = (text: string, name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);

describe('the Requests log on /metrics', () => {
  it('counts the rows a full buffer dropped and the rows written', async () => {
    const scrape = async () => (await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).body;
    const before = await scrape();
    expect(counter(before, 'storefront_request_log_rows_dropped_total')).toBe(0);
    expect(counter(before, 'storefront_request_log_rows_written_total')).toBe(0);
    const store = await t.newStore();
    for (let i = 0; i < 5; i++) {
      const res = await app.inject({ method: 'GET', url: '/api/v1/products', headers: { authorization: `Bearer ${store.token}` } });
      expect(res.statusCode).toBe(200);
    }
    expect(counter(await scrape(), 'storefront_request_log_rows_dropped_total')).toBe(2);
    await log.flush();
    const after = await scrape();
    expect(counter(after, 'storefront_request_log_rows_written_total')).toBe(3);
    expect(after).toMatch(/^# TYPE storefront_request_log_rows_dropped_total counter$/m);
  });
});
