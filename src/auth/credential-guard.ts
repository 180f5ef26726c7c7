import { RateLimiterRes } from 'rate-limiter-flexible';
import { AppError, rateLimited } from '../errors.js';
import type { Auth } from '../http/index.js';
import { hashApiKey } from '../shared/index.js';
import { createCounter, retryAfterSeconds } from './counters.js';
import type { RedisLink } from './redis-link.js';
import { TtlSet } from './ttl-set.js';

/** CONTRACT §4: after 60 requests with an invalid bearer credential from one address in a minute → 429. */
export const INVALID_CREDENTIALS = { points: 60, duration: 60 };

// API keys that resolved lately. While an address is blocked, only these are looked up: an unknown key
// from a blocked address costs no database work, a key in use keeps working (and is still looked up,
// so a revoked key fails at once).
const RECENT_KEYS_TTL_MS = 15 * 60 * 1000;
const RECENT_KEYS_MAX = 10_000;

export interface CredentialGuard {
  /** runs `resolve` for `credential` from `address`, counting each 401 and answering 429 once blocked */
  resolve(address: string, credential: string, resolve: () => Promise<Auth>): Promise<Auth>;
}

export function createCredentialGuard(link: RedisLink | null, prefix: string): CredentialGuard {
  const invalidByAddress = createCounter(link, prefix, 'invalid-credentials', INVALID_CREDENTIALS);
  const recentKeys = new TtlSet(RECENT_KEYS_TTL_MS, RECENT_KEYS_MAX);

  async function assertNotBlocked(address: string): Promise<void> {
    const state = await invalidByAddress.get(address);
    if (state && state.consumedPoints >= INVALID_CREDENTIALS.points) throw rateLimited(retryAfterSeconds(state));
  }

  async function countInvalid(address: string): Promise<void> {
    try {
      await invalidByAddress.consume(address);
    } catch (res) {
      if (res instanceof RateLimiterRes) throw rateLimited(retryAfterSeconds(res));
      throw res;
    }
  }

  return {
    async resolve(address, credential, resolve) {
      const keyHash = credential.startsWith('sfk_') ? hashApiKey(credential) : null;
      if (keyHash && !recentKeys.has(keyHash)) await assertNotBlocked(address);
      try {
        const auth = await resolve();
        if (keyHash) recentKeys.add(keyHash);
        return auth;
      } catch (error) {
        if (!(error instanceof AppError && error.status === 401)) throw error;
        if (keyHash) recentKeys.delete(keyHash);
        await countInvalid(address);
        throw error;
      }
    },
  };
}
