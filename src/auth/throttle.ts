import { RateLimiterRes } from 'rate-limiter-flexible';
import { rateLimited } from '../errors.js';
import { type Counter, createCounter, retryAfterSeconds } from './counters.js';
import type { RedisLink } from './redis-link.js';

// CONTRACT §4, throttling of POST /auth: more than 5 failures for one account from one address, or more
// than 50 for one account from all addresses, in 15 minutes; more than 30 requests from one address a minute.
export const ADDRESS_ACCOUNT_FAILURES = { points: 5, duration: 15 * 60 };
export const ACCOUNT_FAILURES = { points: 50, duration: 15 * 60 };
export const ADDRESS_REQUESTS = { points: 30, duration: 60 };

export interface LoginThrottle {
  /** counts a POST /auth request from `address` (every one, whatever its body); 429 past the limit */
  request(address: string): Promise<void>;
  /** 429 when `account` may not be tried from `address` now */
  admit(address: string, account: string): Promise<void>;
  failed(address: string, account: string): Promise<void>;
  /** clears this address's failures for the account; the account-wide count stays */
  succeeded(address: string, account: string): Promise<void>;
}

/** The throttle key of an account: store slug and email as given, the email case-folded. */
export function accountKey(storeSlug: string, email: string): string {
  return JSON.stringify([storeSlug, email.trim().toLowerCase()]);
}

const pairKey = (address: string, account: string) => JSON.stringify([address, account]);

function isSpent(state: RateLimiterRes | null, points: number): state is RateLimiterRes {
  return state !== null && state.consumedPoints >= points;
}

export function createLoginThrottle(link: RedisLink | null, prefix: string): LoginThrottle {
  const requests: Counter = createCounter(link, prefix, 'login-requests', ADDRESS_REQUESTS);
  const pairFailures = createCounter(link, prefix, 'login-failures-address', ADDRESS_ACCOUNT_FAILURES);
  const accountFailures = createCounter(link, prefix, 'login-failures-account', ACCOUNT_FAILURES);
  return {
    async request(address) {
      try {
        await requests.consume(address);
      } catch (res) {
        if (res instanceof RateLimiterRes) throw rateLimited(retryAfterSeconds(res));
        throw res;
      }
    },
    async admit(address, account) {
      const [pair, all] = await Promise.all([pairFailures.get(pairKey(address, account)), accountFailures.get(account)]);
      const waits: number[] = [];
      if (isSpent(pair, ADDRESS_ACCOUNT_FAILURES.points)) waits.push(retryAfterSeconds(pair));
      if (isSpent(all, ACCOUNT_FAILURES.points)) waits.push(retryAfterSeconds(all));
      if (waits.length > 0) throw rateLimited(Math.max(...waits));
    },
    async failed(address, account) {
      await Promise.all([pairFailures.penalty(pairKey(address, account)), accountFailures.penalty(account)]);
    },
    async succeeded(address, account) {
      await pairFailures.delete(pairKey(address, account));
    },
  };
}
