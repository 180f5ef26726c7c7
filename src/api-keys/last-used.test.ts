import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { signIn } from '../../test/support/console.fixtures.js';
import { StatementRecorder } from '../../test/support/statements.js';
import { buildApp } from '../app.js';
import type { Answer, App } from '../http/index.js';
import { newId } from '../shared/index.js';
import { type KeyUsage, startKeyUsage } from './index.js';

/** Each UPDATE of api_keys' last use a recorder saw, as the number of keys it carried. */
const updatesOf = (recorder: StatementRecorder) =>
  recorder.statements
    .filter((statement) => statement.sql.includes('UPDATE api_keys k SET last_used_at'))
    .map((statement) => (statement.parameters[0] as unknown[]).length);

let t: TestContext;
let app: App;
let usage: KeyUsage;
const recorder = new StatementRecorder();
const warnings: object[] = [];
const sink = { warn: (object: object) => void warnings.push(object) };

beforeAll(async () => {
  t = await setupTestApp();
  // The timer never fires within a test: what is written is what a flush (or the app's close) wrote.
  usage = startKeyUsage(t.database.db.withPlugin(recorder), sink, { flushMs: 3_600_000 });
  app = await buildApp({ config: t.config, database: t.database, keyUsage: usage, requestLog: null, redisPrefix: `lu-${newId()}:` });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await t.close();
});

async function call(credential: string, method: string, url: string, body?: object) {
  const response = await app.inject({
    method: method as 'GET',
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${credential}` },
    ...(body ? { payload: body } : {}),
  });
  return { status: response.statusCode, body: response.json() };
}

async function newKey(store: TestStore, name: string) {
  const created = await call(store.token, 'POST', '/api-keys', { name, scopes: ['products:read'] });
  expect(created.status).toBe(201);
  return created.body.data as { id: string; key: string };
}

const keysOf = async (store: TestStore) =>
  (await call(store.token, 'GET', '/api-keys')).body.data as { id: string; name: string; lastUsedAt: string | null }[];

const lastUsedOf = async (store: TestStore, id: string) => (await keysOf(store)).find((key) => key.id === id)?.lastUsedAt;

const use = (store: TestStore, keyId: string, at: Date): Answer => ({
  method: 'GET',
  route: '/api/v1/products',
  status: 200,
  ms: 1,
  at,
  requestId: newId(),
  auth: { storeId: store.id, scopes: ['products:read'], kind: 'key', principal: `key:${keyId}`, name: 'k', keyId },
  idempotencyKey: null,
  errorCode: null,
});

describe("an API key's last use", () => {
  it('is null until the key is used and written; two uses within the minute are one UPDATE, holding the later', async () => {
    const store = await t.newStore();
    const key = await newKey(store, 'sync');
    const idle = await newKey(store, 'idle');
    expect(await lastUsedOf(store, key.id)).toBeNull();

    const first = await call(key.key, 'GET', '/products');
    expect(first.status).toBe(200);
    const between = new Date();
    // refused for its scope, the key was still used (as in the Requests log)
    expect((await call(key.key, 'POST', '/products', { title: 'x', price: 1 })).status).toBe(403);
    // noted in memory only: nothing written on the request's path
    expect(updatesOf(recorder)).toEqual([]);
    expect(await lastUsedOf(store, key.id)).toBeNull();

    await usage.flush();
    expect(updatesOf(recorder)).toEqual([1]);
    const keys = await keysOf(store);
    const written = keys.find((row) => row.id === key.id)?.lastUsedAt;
    expect(written).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(new Date(written as string).getTime()).toBeGreaterThanOrEqual(between.getTime());
    expect(new Date(written as string).getTime()).toBeLessThanOrEqual(Date.now());
    // an access token is no key: the admin's calls above noted nothing, the unused key stays null
    expect(keys.find((row) => row.id === idle.id)?.lastUsedAt).toBeNull();

    // nothing used since: a flush writes nothing
    await usage.flush();
    expect(updatesOf(recorder)).toEqual([1]);
    expect(warnings).toEqual([]);
  });

  it('keeps the newest time when several processes write theirs, in any order', async () => {
    const store = await t.newStore();
    const key = await newKey(store, 'two processes');
    const one = startKeyUsage(t.database.db, sink, { flushMs: 3_600_000 });
    const two = startKeyUsage(t.database.db, sink, { flushMs: 3_600_000 });
    const newer = new Date(Date.now() - 1_000);
    one.observe(use(store, key.id, newer));
    two.observe(use(store, key.id, new Date(newer.getTime() - 30_000)));
    await one.close();
    await two.close();
    expect(await lastUsedOf(store, key.id)).toBe(newer.toISOString());
  });

  it('writes every key used meanwhile in one UPDATE, and what is noted when the app closes', async () => {
    const store = await t.newStore();
    const keys = await Promise.all([newKey(store, 'a'), newKey(store, 'b'), newKey(store, 'c')]);
    const other = await t.newStore();
    const theirs = await newKey(other, 'theirs');
    const closing = new StatementRecorder();
    const own = startKeyUsage(t.database.db.withPlugin(closing), sink, { flushMs: 3_600_000 });
    const second = await buildApp({
      config: t.config,
      database: t.database,
      keyUsage: own,
      requestLog: null,
      redisPrefix: `lu-${newId()}:`,
    });
    for (const key of [...keys, theirs, keys[0]]) {
      expect((await second.inject({ url: '/api/v1/products', headers: { authorization: `Bearer ${key.key}` } })).statusCode).toBe(200);
    }
    await second.close();
    expect(updatesOf(closing)).toEqual([4]);
    for (const key of keys) expect(await lastUsedOf(store, key.id)).not.toBeNull();
    expect(await lastUsedOf(other, theirs.id)).not.toBeNull();
  });

  it('is no change of the credential: writing it announces nothing, so no process forgets the key it trusts', async () => {
    const store = await t.newStore();
    const key = await newKey(store, 'announced');
    const payloads: string[] = [];
    const listener = t.database.listen('storefront_credentials', { message: (payload) => void payloads.push(payload), reset() {} });
    try {
      await expect.poll(() => listener.live()).toBe(true);
      usage.observe(use(store, key.id, new Date()));
      await usage.flush();
      expect(await lastUsedOf(store, key.id)).not.toBeNull();
      // the revoke is announced after the last use's UPDATE committed (one channel, commit order): by the time it
      // arrives, an announcement of the UPDATE would have too
      expect((await call(store.token, 'DELETE', `/api-keys/${key.id}`)).status).toBe(200);
      const tag = `key:${store.id}:${key.id}`;
      await expect.poll(() => payloads.includes(tag)).toBe(true);
      expect(payloads.filter((payload) => payload === tag)).toEqual([tag]);
    } finally {
      await listener.close();
    }
  });

  it('shows on the console\'s API keys screen: "never", then the time', async () => {
    const store = await t.newStore();
    const key = await newKey(store, 'console key');
    const console = await signIn(app, store);
    const before = await console.get('/console/api-keys');
    expect(before.status).toBe(200);
    expect(before.body).toContain('<th scope="col">Last used</th>');
    expect(before.body).not.toContain('is not recorded');
    const rowOf = (body: string) => body.split('<tr').find((row) => row.includes('console key')) ?? '';
    expect(rowOf(before.body)).toContain('<td>never</td>');

    await call(key.key, 'GET', '/products');
    await usage.flush();
    const lastUsedAt = await lastUsedOf(store, key.id);
    const after = await console.get('/console/api-keys');
    expect(rowOf(after.body)).toContain(`<td>${lastUsedAt}</td>`);
  });
});
