import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp } from '../../test/helpers.js';
import { createLoginThrottle } from './throttle.js';

const redisUrl = process.env.REDIS_URL;

describe.runIf(redisUrl)('rate-limit state in Redis (REDIS_URL)', () => {
  const redis = new Redis(redisUrl as string);
  afterAll(() => redis.quit());

  it('counts login failures across instances sharing one Redis', async () => {
    const prefix = `storefront-test:${randomBytes(6).toString('hex')}:`;
    const instanceA = createLoginThrottle(redis, prefix);
    const instanceB = createLoginThrottle(redis, prefix);
    const account = 'shop\u0000owner@shop.test';
    for (let i = 0; i < 5; i++) {
      await (i % 2 ? instanceA : instanceB).admit(`10.2.0.${i}`, account);
      await (i % 2 ? instanceA : instanceB).failed(account);
    }
    await expect(instanceB.admit('10.2.1.1', account)).rejects.toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    await instanceA.succeeded(account);
    await expect(instanceB.admit('10.2.1.1', account)).resolves.toBeUndefined();
  });

  it('limits a credential through Redis with the RateLimit headers', async () => {
    const t = await setupTestApp({ rateLimit: 1, redisUrl: redisUrl as string });
    const store = await t.newStore();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await t.call(store, 'GET', '/attribute-sets')).status);
    expect(statuses).toEqual([200, 200, 429]);
    const last = await t.call(store, 'GET', '/attribute-sets');
    expectError(last, 429, 'RATE_LIMITED');
    expect(last.headers['ratelimit-limit']).toBe('2');
    await t.close();
  });
});
