import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppSetup, newAdmin, openAppSetup } from '../../test/support/auth.fixtures.js';
import { expectBudget } from '../../test/support/rate-limit.fixtures.js';
import type { App } from '../http/index.js';

// CONTRACT §11: STOREFRONT_STORE_RATE_LIMIT, one budget for all of a store's credentials, shared across
// processes through Redis like the limit per credential, in-process while Redis is unreachable.

const REDIS_UP = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const get = (app: App, token: string) =>
  app.inject({ method: 'GET', url: '/api/v1/attribute-sets', headers: { authorization: `Bearer ${token}` } });

/** A key of the admin's store, so the store has two credentials. */
async function apiKeyOf(app: App, token: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/api-keys',
    headers: { authorization: `Bearer ${token}` },
    payload: { name: 'second credential', scopes: ['*'] },
  });
  expect(res.statusCode).toBe(201);
  return res.json().data.key;
}

const counts = (statuses: number[]) => ({
  ok: statuses.filter((s) => s === 200).length,
  limited: statuses.filter((s) => s === 429).length,
});

describe('the limit per store, with Redis up, two instances on one database', () => {
  let setup: AppSetup;
  let a: App;
  let b: App;
  beforeAll(async () => {
    // 5/s per store = 10 per 2 s window; no limit per credential, so only the store's budget binds
    setup = await openAppSetup({ rateLimit: 0, storeRateLimit: 5, redisUrl: REDIS_UP, redisTimeoutMs: 2000 });
    const redisPrefix = `storefront-test:${randomBytes(6).toString('hex')}:`;
    a = await setup.start({ redisPrefix });
    b = await setup.start({ redisPrefix });
  });
  afterAll(() => setup.close());

  it('is one budget for every credential of the store, on every instance, and leaves other stores alone', async () => {
    const busy = await newAdmin(setup);
    const key = await apiKeyOf(a, busy.token);
    const other = await newAdmin(setup);
    // each credential known to each instance (its check read once from the database), then a fresh window
    for (const app of [a, b]) for (const credential of [key, busy.token]) await get(app, credential);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    // a burst from two credentials of one store through two instances: one budget of 10 per window
    await expectBudget(async () => {
      const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => get(i % 2 ? a : b, i % 3 ? key : busy.token)));
      return burst.map((res) => res.statusCode);
    }, 10);
    // spend what is left of the window's budget, then one more is refused with the envelope
    let limited = await get(a, key);
    for (let i = 0; i < 10 && limited.statusCode === 200; i++) limited = await get(a, key);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // another store still has its whole budget
    expect((await get(b, other.token)).statusCode).toBe(200);
  });
});

describe('the limit per store, with Redis unreachable', () => {
  let setup: AppSetup;
  let app: App;
  beforeAll(async () => {
    setup = await openAppSetup({ rateLimit: 0, storeRateLimit: 5, redisUrl: 'redis://127.0.0.1:1' });
    app = await setup.start();
  });
  afterAll(() => setup.close());

  it('keeps limiting in process', async () => {
    const admin = await newAdmin(setup);
    await expectBudget(async () => {
      const statuses = await Promise.all(Array.from({ length: 25 }, () => get(app, admin.token)));
      return statuses.map((res) => res.statusCode);
    }, 10);
  });
});

describe('without STOREFRONT_STORE_RATE_LIMIT', () => {
  it('sets no limit per store (the default, 0)', async () => {
    const setup = await openAppSetup({ rateLimit: 0 });
    try {
      expect(setup.config.storeRateLimit).toBe(0);
      const app = await setup.start();
      const admin = await newAdmin(setup);
      const statuses = await Promise.all(Array.from({ length: 30 }, () => get(app, admin.token)));
      expect(counts(statuses.map((res) => res.statusCode))).toEqual({ ok: 30, limited: 0 });
    } finally {
      await setup.close();
    }
  });
});
