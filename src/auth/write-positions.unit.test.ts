import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { connectRedis, type RedisLink } from './redis-link.js';
import { rememberWritePositions } from './write-positions.js';

// Each credential's newest write position: only ever forward, forgotten after 60 s, shared through Redis.

const silent = { warn: () => undefined, info: () => undefined } as never;

describe('remembered write positions', () => {
  it('keeps the newest position of each credential for 60 s, in this process without Redis', async () => {
    let now = 0;
    const memory = rememberWritePositions(null, 'p:', () => now);
    await memory.remember('store:admin:a', '0/3000200');
    await memory.remember('store:admin:a', '0/3000100');
    expect(await memory.newest('store:admin:a')).toBe('0/3000200');
    expect(await memory.newest('store:admin:b')).toBeNull();
    now = 59_999;
    expect(await memory.newest('store:admin:a')).toBe('0/3000200');
    now = 60_000;
    expect(await memory.newest('store:admin:a')).toBeNull();
  });

  // One entry per credential that wrote in the last minute, of every store: bounded however many stores write.
  it('holds at most 100,000 credentials in this process, the oldest forgotten first', async () => {
    const memory = rememberWritePositions(null, 'p:', () => 0);
    for (let i = 0; i <= 100_000; i++) await memory.remember(`store-${i}:admin:a`, '0/3000200');
    expect(await memory.newest('store-0:admin:a')).toBeNull();
    expect(await memory.newest('store-1:admin:a')).toBe('0/3000200');
    expect(await memory.newest('store-100000:admin:a')).toBe('0/3000200');
  });

  const redisUrl = process.env.REDIS_URL;
  const links: RedisLink[] = [];
  afterAll(async () => Promise.all(links.map((link) => link.close())));

  it.skipIf(!redisUrl)('shares them between processes through Redis, the newer one kept whichever comes last', async () => {
    const prefix = `test:${randomBytes(6).toString('hex')}:`;
    const [one, two] = await Promise.all([0, 1].map(() => connectRedis(redisUrl as string, silent, 2000)));
    links.push(one, two);
    await Promise.all([one.settled(2000), two.settled(2000)]);
    const first = rememberWritePositions(one, prefix);
    const second = rememberWritePositions(two, prefix);
    await first.remember('s:key:k', '1/0');
    expect(await second.newest('s:key:k')).toBe('1/0');
    await second.remember('s:key:k', '0/FFFFFFFF');
    expect(await first.newest('s:key:k')).toBe('1/0');
    expect(await second.newest('s:key:k')).toBe('1/0');
    await one.client.del(`${prefix}position:s:key:k`);
  });
});
