import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { signIn } from '../../test/support/console.fixtures.js';
import { buildApp } from '../app.js';
import type { App } from '../http/index.js';
import { type RequestLog, startRequestLog } from '../request-log/index.js';
import { newId } from '../shared/index.js';

/** The Requests screen (CONTRACT §12) through app.inject, on an app whose Requests log the test flushes. */

let t: TestContext;
let log: RequestLog;
let app: App;
beforeAll(async () => {
  t = await setupTestApp();
  log = startRequestLog(t.database.db, 7, { debug() {}, warn() {} }, { flushMs: 3_600_000 });
  app = await buildApp({ config: { ...t.config, requestLog: true }, database: t.database, requestLog: log, redisPrefix: `rq-${newId()}:` });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await t.close();
});

const HOSTILE_NAME = '<img src=x onerror=alert(1)>';
const HOSTILE_KEY = '</script><script>alert(2)</script>';

async function api(credential: string, method: string, url: string, body?: object, headers: Record<string, string> = {}) {
  const res = await app.inject({
    method: method as 'GET',
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${credential}`, ...headers },
    ...(body ? { payload: body } : {}),
  });
  return { status: res.statusCode, body: res.json(), requestId: String(res.headers['x-request-id']) };
}

/** A store whose key (named to break out of HTML) made a 200 and two 404s, and whose admin made a keyed 400. */
async function storeWithTraffic(): Promise<{ store: TestStore; ids: Record<string, string> }> {
  const store = await t.newStore();
  const key = (await api(store.token, 'POST', '/api-keys', { name: HOSTILE_NAME, scopes: ['products:read'] })).body.data.key as string;
  const listed = await api(key, 'GET', '/products');
  const missing = await api(key, 'GET', `/products/${newId()}`);
  await api(key, 'GET', `/products/${newId()}`);
  const refused = await api(store.token, 'POST', '/products', { price: 1 }, { 'idempotency-key': HOSTILE_KEY });
  expect([listed.status, missing.status, refused.status]).toEqual([200, 404, 400]);
  await log.flush();
  return { store, ids: { listed: listed.requestId, missing: missing.requestId, refused: refused.requestId } };
}

/** Text as the browser reads it out of escaped markup (ghtml writes numeric character references). */
const decoded = (markup: string) =>
  markup
    .replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)))
    .replace(/&(lt|gt|quot|amp);/g, (_, name) => ({ lt: '<', gt: '>', quot: '"', amp: '&' })[name as 'lt']);

/** The request ids shown in the page's table of requests. */
const shownIds = (body: string) => [...body.matchAll(/<td><code>([^<]+)<\/code><\/td>/g)].map((match) => match[1]);

describe('the Requests screen', () => {
  it("shows the store's requests newest first with every field escaped, and the last 24 hours' errors by code and route", async () => {
    const { store, ids } = await storeWithTraffic();
    const client = await signIn(app, store);
    const page = await client.get('/console/requests');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    const shown = shownIds(page.body);
    expect(shown.slice(0, 3)).toEqual([ids.refused, expect.any(String), ids.missing]);
    expect(shown).toContain(ids.listed);
    // the key's name and the Idempotency-Key are text, never markup
    expect(page.body).not.toContain('<img');
    expect(page.body).not.toContain('<script>alert');
    expect(decoded(page.body)).toContain(`<td>${HOSTILE_NAME}</td>`);
    expect(decoded(page.body)).toContain(`<td>${HOSTILE_KEY}</td>`);
    // the controls by their names: the search box, the filters, the section headings
    for (const label of ['>Search</label>', '>Status</label>', '>Route</label>', '>Credential</label>', '>Filter</button>']) {
      expect(page.body).toContain(label);
    }
    const groups = page.body.slice(page.body.indexOf('Errors in the last 24 hours'), page.body.indexOf('<h2>Requests</h2>'));
    expect(groups).toMatch(/<td>NOT_FOUND<\/td><td><a [^>]+>\/api\/v1\/products\/:id<\/a><\/td><td>2<\/td>/);
    expect(groups).toMatch(/<td>VALIDATION_ERROR<\/td><td><a [^>]+>\/api\/v1\/products<\/a><\/td><td>1<\/td>/);
  });

  it('filters by status class, route, credential and search, and pages by cursor', async () => {
    const { store, ids } = await storeWithTraffic();
    const client = await signIn(app, store);
    const shownFor = async (query: string) => shownIds((await client.get(`/console/requests?${query}`)).body);
    expect(await shownFor('status=4xx')).toHaveLength(3);
    expect(await shownFor('status=2xx&route=%2Fapi%2Fv1%2Fproducts')).toEqual([ids.listed]);
    expect(
      await shownFor(`credential=${encodeURIComponent(HOSTILE_NAME)}&route=${encodeURIComponent('/api/v1/products/:id')}`),
    ).toHaveLength(2);
    expect(await shownFor(`search=${encodeURIComponent(HOSTILE_KEY)}`)).toEqual([ids.refused]);
    expect(await shownFor(`search=${ids.missing}`)).toEqual([ids.missing]);
    expect(await shownFor('search=validation_error')).toEqual([ids.refused]);
    expect((await client.get('/console/requests?status=6xx')).status).toBe(400);
    expect((await client.get('/console/requests?cursor=made-up')).status).toBe(400);

    // 60 more requests: a first page of 50 with a "Next page" link to the rest
    const key = (await api(store.token, 'POST', '/api-keys', { name: 'pager', scopes: ['products:read'] })).body.data.key as string;
    for (let i = 0; i < 60; i++) await api(key, 'GET', '/products');
    await log.flush();
    const first = await client.get('/console/requests');
    expect(shownIds(first.body)).toHaveLength(50);
    const older = decoded(/<a href="([^"]+)" rel="next">Next page<\/a>/.exec(first.body)?.[1] ?? '');
    expect(older).toMatch(/^\/console\/requests\?cursor=/);
    const second = await client.get(older);
    const all = [...shownIds(first.body), ...shownIds(second.body)];
    // every row of the store once (the console's own reads of the API, as its admin, are rows too)
    const stored = await t.database.db.selectFrom('request_log').select('request_id').where('store_id', '=', store.id).execute();
    expect(all.length).toBeGreaterThanOrEqual(66);
    expect(new Set(all).size).toBe(all.length);
    expect([...all].sort()).toEqual(stored.map((row) => row.request_id).sort());
  });

  it("shows a store nothing of another store's requests, whatever the filter", async () => {
    const [a, b] = [await storeWithTraffic(), await storeWithTraffic()];
    const client = await signIn(app, a.store);
    const page = await client.get('/console/requests');
    const shown = shownIds(page.body);
    for (const id of Object.values(b.ids)) expect(shown).not.toContain(id);
    expect(page.body).not.toContain(b.store.email);
    expect(shownIds((await client.get(`/console/requests?search=${b.ids.refused}`)).body)).toEqual([]);
    expect(shownIds((await client.get(`/console/requests?credential=${encodeURIComponent(b.store.email)}`)).body)).toEqual([]);
  });
});
