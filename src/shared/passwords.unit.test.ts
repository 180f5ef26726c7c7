import { describe, expect, it } from 'vitest';
import { hashingLoad, hashPassword, MAX_CONCURRENT_HASHES, verifyPassword } from './passwords.js';

describe('password hashing', () => {
  it('verifies what it hashed', async () => {
    const hash = await hashPassword('long-secret-1');
    expect(await verifyPassword('long-secret-1', hash)).toBe(true);
    expect(await verifyPassword('long-secret-2', hash)).toBe(false);
  });

  it('runs at most a few hashes at once and queues the rest (each holds 16 MiB)', async () => {
    expect(MAX_CONCURRENT_HASHES).toBeGreaterThanOrEqual(2);
    expect(MAX_CONCURRENT_HASHES).toBeLessThanOrEqual(4);
    const burst = Array.from({ length: 12 }, (_, i) => hashPassword(`password-${i}`));
    await Promise.resolve();
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, hashingLoad().running);
    }, 1);
    expect(hashingLoad()).toEqual({ running: MAX_CONCURRENT_HASHES, waiting: 12 - MAX_CONCURRENT_HASHES });
    await Promise.all(burst);
    clearInterval(sampler);
    expect(peak).toBeLessThanOrEqual(MAX_CONCURRENT_HASHES);
    expect(hashingLoad()).toEqual({ running: 0, waiting: 0 });
  });
});
