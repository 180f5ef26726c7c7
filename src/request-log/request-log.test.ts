import { type KyselyPlugin, type PluginTransformResultArgs, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, setupTestApp, type TestContext, type TestStore, testDatabaseUrl } from '../../test/helpers.js';
import { buildApp } from '../app.js';
import { openDatabase } from '../db/database.js';
import type { Database } from '../db/index.js';
import type { Answer, App } from '../http/index.js';
import { newId } from '../shared/index.js';
import { listRequests, purgeRequestLog, recentErrorGroups, requestFilterChoices, startRequestLog } from './index.js';
import type { RequestLog } from './request-log.js';
import { insertRequests } from './request-log.sql.js';

let t: TestContext;
let log: RequestLog;
let app: App;
const warnings: object[] = [];
const sink = { debug() {}, warn: (object: object) => void warnings.push(object) };

beforeAll(async () => {
  t = await setupTestApp();
  // The timer never fires within a test: what is written is what a flush (or the app's close) wrote.
  log = startRequestLog(t.database.db, 7, sink, { flushMs: 3_600_000 });
  app = await buildApp({ config: t.config, database: t.database, requestLog: log, redisPrefix: `rl-${newId()}:` });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await t.close();
});

async function call(on: App, credential: string | null, method: string, url: string, body?: object, headers: Record<string, string> = {}) {
  const response = await on.inject({
    method: method as 'GET',
    url: `/api/v1${url}`,
    headers: { ...(credential ? { authorization: `Bearer ${credential}` } : {}), ...headers },
    ...(body ? { payload: body } : {}),
  });
  return { status: response.statusCode, body: response.json(), requestId: String(response.headers['x-request-id']) };
}

const rowsOf = async (store: TestStore) =>
  (await sql<Record<string, unknown>>`SELECT * FROM request_log WHERE store_id = ${store.id} ORDER BY at, id`.execute(t.database.db)).rows;

const countOf = async (store: TestStore) => (await rowsOf(store)).length;

const answer = (store: TestStore, overrides: Partial<Answer> = {}): Answer => ({
  method: 'GET',
  route: '/api/v1/products/:id',
  status: 200,
  ms: 1.5,
  at: new Date(),
  requestId: newId(),
  auth: { storeId: store.id, scopes: ['*'], kind: 'key', principal: 'key:x', name: 'bulk' },
  idempotencyKey: null,
  errorCode: null,
  ...overrides,
});

/** Rows written straight to the table (the purge's tests): one INSERT, as the writer's batches are. */
const insertRows = (db: typeof t.database.db, rows: readonly { storeId: string; at: Date; requestId: string; route: string }[]) =>
  insertRequests(db, {
    storeIds: rows.map((row) => row.storeId),
    atMs: rows.map((row) => row.at.getTime()),
    methods: rows.map(() => 'GET'),
    routes: rows.map((row) => row.route),
    statuses: rows.map(() => 200),
    credentials: rows.map(() => 'seeded'),
    requestIds: rows.map((row) => row.requestId),
    idempotencyKeys: rows.map(() => null),
    errorCodes: rows.map(() => null),
    durationsMs: rows.map(() => 1),
  });

const entry = (store: TestStore, at: Date, route = '/api/v1/products') => ({ storeId: store.id, at, requestId: newId(), route });

/** The rows of each INSERT into request_log (the length of its first array parameter: the stores' ids). */
function countingInserts(): KyselyPlugin & { sizes: number[] } {
  const sizes: number[] = [];
  return {
    sizes,
    transformQuery({ node }) {
      const raw = node as unknown as { kind: string; sqlFragments?: readonly string[]; parameters?: readonly { value?: unknown }[] };
      if (raw.kind === 'RawNode' && raw.sqlFragments?.[0]?.includes('INSERT INTO request_log')) {
        sizes.push((raw.parameters?.find((parameter) => Array.isArray(parameter.value))?.value as unknown[]).length);
      }
      return node;
    },
    transformResult: async ({ result }: PluginTransformResultArgs) => result,
  };
}

describe('the Requests log', () => {
  it('keeps each request with its fields, the credential by name, and no secret', async () => {
    const store = await t.newStore();
    const key = (await call(app, store.token, 'POST', '/api-keys', { name: 'catalog-sync', scopes: ['products:read'] })).body.data
      .key as string;
    const created = await call(app, store.token, 'POST', '/products', { title: 'Logged', price: 1 }, { 'idempotency-key': 'idem-36-a' });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const read = await call(app, key, 'GET', `/products/${id}`);
    expect(read.status).toBe(200);
    const searched = await call(app, key, 'GET', '/products?search=secret-query-text');
    expect(searched.status).toBe(200);
    const refused = await call(app, key, 'POST', '/products', { title: 'Not allowed', price: 1 });
    expect(refused.status).toBe(403);
    const invalid = await call(app, store.token, 'POST', '/products', { title: '' }, { 'idempotency-key': 'idem-36-b' });
    expect(invalid.status).toBe(400);
    // a request no credential named a store for is in no store's log
    expect((await call(app, 'sfk_notakeynotakeynotakey', 'GET', '/products')).status).toBe(401);

    // off the request path: nothing is written until the buffer is
    expect(await countOf(store)).toBe(0);
    await log.flush();

    const page = await listRequests(t.database.db, store.id, {});
    expect(page.data.map((row) => [row.method, row.route, row.status, row.credential, row.idempotencyKey, row.errorCode])).toEqual([
      ['POST', '/api/v1/products', 400, store.email, 'idem-36-b', 'VALIDATION_ERROR'],
      ['POST', '/api/v1/products', 403, 'catalog-sync', null, 'FORBIDDEN'],
      ['GET', '/api/v1/products', 200, 'catalog-sync', null, null],
      ['GET', '/api/v1/products/:id', 200, 'catalog-sync', null, null],
      ['POST', '/api/v1/products', 201, store.email, 'idem-36-a', null],
      ['POST', '/api/v1/api-keys', 201, store.email, null, null],
    ]);
    expect(page.data.slice(0, 5).map((row) => row.requestId)).toEqual(
      [invalid, refused, searched, read, created].map((reply) => reply.requestId),
    );
    for (const row of page.data) {
      expect(row.durationMs).toBeGreaterThanOrEqual(0);
      expect(Date.parse(row.at)).toBeGreaterThan(Date.now() - 600_000);
    }
    // what is stored, every column: no credential, no URL with ids or query, no body
    const stored = JSON.stringify(await rowsOf(store));
    for (const secret of [store.token, key, key.slice(4), id, 'secret-query-text', 'Logged', 'Not allowed'])
      expect(stored).not.toContain(secret);
    expect(warnings).toEqual([]);
  });

  it('filters by status class, route and credential, pages newest first, and groups the last 24 hours of errors', async () => {
    const store = await t.newStore();
    const key = (await call(app, store.token, 'POST', '/api-keys', { name: 'reader', scopes: ['products:read'] })).body.data.key as string;
    for (let i = 0; i < 3; i++) expect((await call(app, key, 'GET', `/products/${newId()}`)).status).toBe(404);
    expect((await call(app, key, 'GET', '/products')).status).toBe(200);
    expect((await call(app, key, 'DELETE', `/products/${newId()}`)).status).toBe(403);
    expect((await call(app, store.token, 'POST', '/products', { price: 1 })).status).toBe(400);
    await log.flush();

    const db = t.database.db;
    const statuses = async (query: Parameters<typeof listRequests>[2]) =>
      (await listRequests(db, store.id, query)).data.map((row) => row.status);
    expect(await statuses({ status: '4xx' })).toEqual([400, 403, 404, 404, 404]);
    expect(await statuses({ status: '2xx' })).toEqual([200, 201]);
    expect(await statuses({ route: '/api/v1/products/:id' })).toEqual([403, 404, 404, 404]);
    expect(await statuses({ credential: store.email })).toEqual([400, 201]);
    expect(await statuses({ status: '4xx', credential: 'reader', route: '/api/v1/products/:id' })).toEqual([403, 404, 404, 404]);

    // pages of two, newest first, each row once
    const walked: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listRequests(db, store.id, { limit: 2, cursor });
      walked.push(...page.data.map((row) => row.requestId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const all = (await listRequests(db, store.id, {})).data.map((row) => row.requestId);
    expect(walked).toEqual(all);
    expect(all).toHaveLength(7);
    await expect(listRequests(db, store.id, { cursor: 'not-a-cursor' })).rejects.toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });

    // most frequent first (requests a millisecond apart may tie on their time: the two single ones in either order)
    const groups = (await recentErrorGroups(db, store.id)).map(({ code, route, count }) => [code, route, count]);
    expect(groups[0]).toEqual(['NOT_FOUND', '/api/v1/products/:id', 3]);
    expect(groups.slice(1).sort()).toEqual([
      ['FORBIDDEN', '/api/v1/products/:id', 1],
      ['VALIDATION_ERROR', '/api/v1/products', 1],
    ]);
    expect(await requestFilterChoices(db, store.id)).toEqual({
      routes: ['/api/v1/api-keys', '/api/v1/products', '/api/v1/products/:id'],
      credentials: [store.email, 'reader'].sort(),
    });
  });

  it('shows a store nothing of another store', async () => {
    const [a, b] = [await t.newStore(), await t.newStore()];
    expect((await call(app, a.token, 'GET', `/products/${newId()}`)).status).toBe(404);
    expect((await call(app, b.token, 'GET', '/products')).status).toBe(200);
    await log.flush();
    const db = t.database.db;
    expect((await listRequests(db, a.id, {})).data.map((row) => [row.route, row.credential])).toEqual([['/api/v1/products/:id', a.email]]);
    expect((await listRequests(db, b.id, {})).data.map((row) => [row.route, row.credential])).toEqual([['/api/v1/products', b.email]]);
    expect((await recentErrorGroups(db, b.id)).length).toBe(0);
    expect((await requestFilterChoices(db, b.id)).credentials).toEqual([b.email]);
  });

  it('writes in batches of at most batchRows, one INSERT each, and drops (and counts) what a full buffer cannot take', async () => {
    const store = await t.newStore();
    const inserts = countingInserts();
    const db = t.database.db.withPlugin(inserts);
    const batched = startRequestLog(db, 7, sink, { flushMs: 3_600_000, batchRows: 500, maxBuffered: 600 });
    // the 500th request starts a write of the first 500; while it runs, the buffer fills to 600 and drops the rest
    for (let i = 0; i < 1_250; i++) batched.observe(answer(store, { requestId: `r-${i}` }));
    expect(batched.stats()).toEqual({ written: 0, dropped: 150, buffered: 600 });
    await batched.close();
    expect(batched.stats()).toEqual({ written: 1_100, dropped: 150, buffered: 0 });
    expect(await countOf(store)).toBe(1_100);
    // one INSERT per batch of at most 500
    expect(inserts.sizes).toEqual([500, 500, 100]);
    // after the close, nothing more is taken
    batched.observe(answer(store));
    expect(batched.stats().dropped).toBe(151);
    expect(await countOf(store)).toBe(1_100);
  });

  it('keeps the newest 10,000 of a store and nothing older than the days, store by store', async () => {
    const [busy, quiet] = [await t.newStore(), await t.newStore()];
    const db = t.database.db;
    const now = Date.now();
    // 10,050 rows a second apart, the oldest first; the quiet store has 20 recent rows and one 8 days old
    const rows = Array.from({ length: 10_050 }, (_, i) => entry(busy, new Date(now - (10_050 - i) * 1000)));
    for (let i = 0; i < rows.length; i += 2_000) await insertRows(db, rows.slice(i, i + 2_000));
    await insertRows(db, [
      ...Array.from({ length: 20 }, (_, i) => entry(quiet, new Date(now - i * 1000))),
      entry(quiet, new Date(now - 8 * 86_400_000), '/api/v1/old'),
    ]);
    const written = new Set([busy.id]);
    expect(await purgeRequestLog(db, written, 7)).toBe(51);
    expect(await countOf(busy)).toBe(10_000);
    const kept = await rowsOf(busy);
    expect(kept[0]?.request_id).toBe(rows[50]?.requestId);
    expect(kept.at(-1)?.request_id).toBe(rows.at(-1)?.requestId);
    // within its bound, the store leaves the worklist
    expect(written.size).toBe(0);
    const quietRows = await rowsOf(quiet);
    expect(quietRows).toHaveLength(20);
    expect(quietRows.map((row) => row.route)).not.toContain('/api/v1/old');
    // a second pass has nothing to do
    expect(await purgeRequestLog(db, new Set([busy.id, quiet.id]), 7)).toBe(0);
    // 10,071 rows written and 51 deleted, yet no ANALYZE: the statistics keeper leaves the log alone (it would
    // analyze it every few seconds under load, for statements that walk the primary key whatever it says)
    await t.database.stats.settle();
    expect(t.database.stats.analyzed.get('request_log')).toBeUndefined();
  });
});

describe('the Requests log of two processes on one database', () => {
  let second: Database | null = null;
  afterAll(async () => second?.close());

  it("gets both processes' requests, each written by its own app, the rest written when the app closes", async () => {
    // a second process: its own app and, on PostgreSQL, its own connections
    if (engine === 'postgres') second = await openDatabase({ databaseUrl: testDatabaseUrl(), dataDir: t.config.dataDir });
    const otherDatabase = second ?? t.database;
    const one = await buildApp({ config: t.config, database: t.database, requestLog: null, redisPrefix: `rl-${newId()}:` });
    const two = await buildApp({ config: { ...t.config, requestLog: true }, database: otherDatabase, redisPrefix: `rl-${newId()}:` });
    const three = await buildApp({ config: { ...t.config, requestLog: true }, database: t.database, redisPrefix: `rl-${newId()}:` });
    const store = await t.newStore();
    const ids = [
      (await call(one, store.token, 'GET', '/products')).requestId,
      (await call(two, store.token, 'GET', '/products')).requestId,
      (await call(three, store.token, 'GET', '/collections')).requestId,
      (await call(two, store.token, 'GET', '/customers')).requestId,
    ];
    await Promise.all([one.close(), two.close(), three.close()]);
    const logged = (await rowsOf(store)).map((row) => row.request_id);
    // the app without a log kept nothing; the two with one (STOREFRONT_REQUEST_LOG on) wrote theirs at close
    expect(logged.sort()).toEqual([ids[1], ids[2], ids[3]].sort());
  });

  it('is off with STOREFRONT_REQUEST_LOG=false', async () => {
    const off = await buildApp({ config: { ...t.config, requestLog: false }, database: t.database, redisPrefix: `rl-${newId()}:` });
    const store = await t.newStore();
    expect((await call(off, store.token, 'GET', '/products')).status).toBe(200);
    await off.close();
    expect(await countOf(store)).toBe(0);
  });
});
