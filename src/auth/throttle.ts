import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { rateLimited } from '../errors.js';

/** CONTRACT §4: >5 failed logins per account in 15 min, or >30 attempts per client address in a minute → 429. */
export const ACCOUNT_FAILURES = { points: 5, duration: 15 * 60 };
export const ADDRESS_ATTEMPTS = { points: 30, duration: 60 };

export interface LoginThrottle {
  /** throws 429 when this attempt must not be tried; counts the attempt against the address */
  admit(address: string, account: string): Promise<void>;
  failed(account: string): Promise<void>;
  succeeded(account: string): Promise<void>;
}

function limiter(redis: Redis | null, prefix: string, name: string, opts: { points: number; duration: number }): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ ...opts, keyPrefix: name });
  if (!redis) return memory;
  // If Redis is unreachable, the in-process limiter keeps protecting this instance.
  return new RateLimiterRedis({ ...opts, storeClient: redis, keyPrefix: `${prefix}${name}`, insuranceLimiter: memory });
}

const retrySeconds = (res: unknown) => Math.ceil((res instanceof RateLimiterRes ? res.msBeforeNext : 1000) / 1000);

export function createLoginThrottle(redis: Redis | null, prefix: string): LoginThrottle {
  const accounts = limiter(redis, prefix, 'login-fail', ACCOUNT_FAILURES);
  const addresses = limiter(redis, prefix, 'login-ip', ADDRESS_ATTEMPTS);
  return {
    async admit(address, account) {
      const failures = await accounts.get(account);
      if (failures && failures.consumedPoints >= ACCOUNT_FAILURES.points) throw rateLimited(retrySeconds(failures));
      try {
        await addresses.consume(address);
      } catch (res) {
        if (res instanceof RateLimiterRes) throw rateLimited(retrySeconds(res));
        throw res;
      }
    },
    async failed(account) {
      await accounts.penalty(account, 1);
    },
    async succeeded(account) {
      await accounts.delete(account);
    },
  };
}
