import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** After a failed or timed-out command, requests skip Redis this long, so one request pays the timeout, not each. */
const BYPASS_AFTER_FAILURE_MS = 1000;
/** At most one "Redis unavailable" warning this often, however many commands fail. */
const WARN_EVERY_MS = 30_000;

/** The one Redis connection of an app, shared by the rate limit and the throttles. */
export interface RedisLink {
  readonly client: Redis;
  /** connected, ready, and not bypassed after a recent failure */
  usable(): boolean;
  /** a command failed or timed out: the next requests use in-process state for a moment */
  failed(error: unknown): void;
  /** resolves once connected, or at the first error, or after `ms`: never rejects */
  settled(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** ioredis is loaded only here: a deployment without REDIS_URL does not carry it (~8 MB of RSS). */
/**
 * `commandTimeoutMs`: a Redis command slower than this gives up and the request uses in-process state
 * instead (fall back within 100 ms per request, never wait on Redis: 80 ms by default).
 */
export async function connectRedis(url: string, log: FastifyBaseLogger, commandTimeoutMs: number): Promise<RedisLink> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, {
    // While disconnected a command fails at once (no queue to wait in) and is never re-sent later.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 1000,
    // Reconnects in the background for as long as the app runs.
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  let bypassUntil = 0;
  let lastWarning = 0;
  const warn = (error: unknown) => {
    if (Date.now() - lastWarning < WARN_EVERY_MS) return;
    lastWarning = Date.now();
    log.warn({ err: error }, 'Redis unavailable: rate limits and throttles use in-process state until it returns');
  };
  client.on('error', warn);
  client.on('ready', () => {
    bypassUntil = 0;
    if (lastWarning) log.info('Redis connected: rate limits and throttles use shared state');
  });
  return {
    client,
    usable: () => client.status === 'ready' && Date.now() >= bypassUntil,
    failed(error) {
      bypassUntil = Date.now() + BYPASS_AFTER_FAILURE_MS;
      warn(error);
    },
    settled(ms) {
      if (client.status === 'ready') return Promise.resolve();
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          client.off('ready', done).off('error', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        client.once('ready', done).once('error', done);
      });
    },
    async close() {
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}
