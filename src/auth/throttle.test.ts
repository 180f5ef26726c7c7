import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';

// CONTRACT §4, throttling of POST /auth (state in process here; src/auth/redis.test.ts covers Redis).

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

let nextAddress = 0;
/** A client address no other test uses, so the per-address limits never couple tests. */
const freshAddress = () => `10.8.${Math.floor(++nextAddress / 250)}.${nextAddress % 250}`;

function login(body: object | string, remoteAddress: string, headers: Record<string, string> = {}) {
  return t.app
    .inject({ method: 'POST', url: '/api/v1/auth', payload: body, remoteAddress, headers })
    .then((res) => ({ status: res.statusCode, body: res.json(), headers: res.headers }));
}

const credentials = (store: TestStore, password = store.password) => ({ storeSlug: store.slug, email: store.email, password });

describe('POST /auth throttling', () => {
  it('blocks an address after 5 failures for an account, while the right password works from elsewhere', async () => {
    const store = await t.newStore();
    const attacker = freshAddress();
    for (let i = 0; i < 5; i++) expectError(await login(credentials(store, 'bad-password'), attacker), 401, 'UNAUTHORIZED');
    const blocked = await login(credentials(store, 'bad-password'), attacker);
    expectError(blocked, 429, 'RATE_LIMITED');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expectError(await login(credentials(store), attacker), 429, 'RATE_LIMITED');
    expect((await login(credentials(store), freshAddress())).status).toBe(200);
  });

  it('counts the account case-insensitively by email', async () => {
    const store = await t.newStore();
    const address = freshAddress();
    for (let i = 0; i < 5; i++) {
      const email = i % 2 ? store.email.toUpperCase() : store.email;
      expectError(await login({ ...credentials(store, 'bad-password'), email }, address), 401, 'UNAUTHORIZED');
    }
    expectError(await login(credentials(store), address), 429, 'RATE_LIMITED');
  });

  it('locks the account after 50 failures from all addresses', async () => {
    const store = await t.newStore();
    for (let i = 0; i < 10; i++) {
      const address = freshAddress();
      const attempts = Array.from({ length: 5 }, () => login(credentials(store, 'bad-password'), address));
      for (const res of await Promise.all(attempts)) expectError(res, 401, 'UNAUTHORIZED');
    }
    const locked = await login(credentials(store), freshAddress());
    expectError(locked, 429, 'RATE_LIMITED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // Another account of the same store is not affected.
    const other = await t.newStore();
    expect((await login(credentials(other), freshAddress())).status).toBe(200);
  });

  it('clears the address count for the account on success, not other addresses', async () => {
    const store = await t.newStore();
    const [a, b] = [freshAddress(), freshAddress()];
    for (let i = 0; i < 4; i++) await login(credentials(store, 'bad-password'), a);
    for (let i = 0; i < 5; i++) await login(credentials(store, 'bad-password'), b);
    expect((await login(credentials(store), a)).status).toBe(200);
    for (let i = 0; i < 5; i++) expectError(await login(credentials(store, 'bad-password'), a), 401, 'UNAUTHORIZED');
    expectError(await login(credentials(store), b), 429, 'RATE_LIMITED');
  });

  it('limits an address to 30 requests a minute, whatever their bodies', async () => {
    const store = await t.newStore();
    const address = freshAddress();
    const bodies = (i: number) => ['{not json', { storeSlug: 'x' }, { ...credentials(store), storeSlug: `no-store-${i}` }][i % 3];
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await login(bodies(i), address, { 'content-type': 'application/json' })).status);
    expect(new Set(statuses)).toEqual(new Set([400, 401]));
    const blocked = await login(credentials(store), address);
    expectError(blocked, 429, 'RATE_LIMITED');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expectError(await login('{not json', address, { 'content-type': 'application/json' }), 429, 'RATE_LIMITED');
    expect((await login(credentials(store), freshAddress())).status).toBe(200);
  });
});

describe('POST /auth body limit', () => {
  it('refuses a body over 16 KB with 413 before reading it', async () => {
    const store = await t.newStore();
    for (const size of [17 * 1024, 1024 * 1024]) {
      const res = await login({ ...credentials(store), padding: 'x'.repeat(size) }, freshAddress());
      expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    }
  });

  it('refuses a declared length over 16 KB without waiting for the body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth',
      remoteAddress: freshAddress(),
      headers: { 'content-type': 'application/json', 'content-length': String(24 * 1024 * 1024) },
      payload: '{}',
    });
    expectError({ status: res.statusCode, body: res.json(), headers: res.headers }, 413, 'PAYLOAD_TOO_LARGE');
  });
});
