import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RedisLink } from './redis-link.js';

/** `points` events per `duration` seconds, in fixed windows starting at a key's first event. */
export interface Window {
  points: number;
  duration: number;
}

/** Counts events per key: in Redis while it is usable (shared by every instance), else in this process. */
export interface Counter {
  /** the key's state, null when it has none */
  get(key: string): Promise<RateLimiterRes | null>;
  /** counts one event; rejects with the RateLimiterRes when the window's points are spent */
  consume(key: string): Promise<RateLimiterRes>;
  /** counts one event, never rejects */
  penalty(key: string): Promise<RateLimiterRes>;
  delete(key: string): Promise<void>;
}

export function retryAfterSeconds(res: RateLimiterRes | null): number {
  return Math.max(1, Math.ceil((res?.msBeforeNext ?? 1000) / 1000));
}

function counterOf(limiter: RateLimiterAbstract): Counter {
  return {
    get: (key) => limiter.get(key),
    consume: (key) => limiter.consume(key),
    penalty: (key) => limiter.penalty(key),
    delete: async (key) => {
      await limiter.delete(key);
    },
  };
}

/**
 * rate-limiter-flexible's own `insuranceLimiter` would also fall back, but every request would still
 * try Redis first; here a failure bypasses Redis for a moment (RedisLink), so a hung Redis costs one
 * request one command timeout, not every request.
 */
export function createCounter(link: RedisLink | null, prefix: string, name: string, window: Window): Counter {
  const memory = counterOf(new RateLimiterMemory({ ...window, keyPrefix: name }));
  if (!link) return memory;
  const shared = counterOf(
    new RateLimiterRedis({ ...window, storeClient: link.client, keyPrefix: `${prefix}${name}`, rejectIfRedisNotReady: true }),
  );
  const run = async <T>(op: (counter: Counter) => Promise<T>): Promise<T> => {
    if (!link.usable()) return op(memory);
    try {
      return await op(shared);
    } catch (error) {
      if (error instanceof RateLimiterRes) throw error;
      link.failed(error);
      return op(memory);
    }
  };
  return {
    get: (key) => run((counter) => counter.get(key)),
    consume: (key) => run((counter) => counter.consume(key)),
    penalty: (key) => run((counter) => counter.penalty(key)),
    delete: (key) => run((counter) => counter.delete(key)),
  };
}
