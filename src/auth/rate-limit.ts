import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { rateLimited } from '../errors.js';
import type { App } from '../http/index.js';
import { bearerOf } from './credentials.js';
import type { RedisLink } from './redis-link.js';

type Store = rateLimit.FastifyRateLimitStore;
type StoreCallback = Parameters<Store['incr']>[1];
type RouteOptions = Parameters<Store['child']>[0];

// The plugin's own two stores: it exports them only as files, without types.
const require = createRequire(import.meta.url);
const LocalStore: new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache?: number,
) => Store = require('@fastify/rate-limit/store/LocalStore.js');
const RedisStore: new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: unknown,
  key: string,
) => Store = require('@fastify/rate-limit/store/RedisStore.js');

/**
 * Redis while it is usable, else this process's memory: the plugin's `skipOnError` would let every
 * request through while Redis is down, and each would first wait for the connection.
 */
class FallbackStore implements Store {
  constructor(
    private readonly link: RedisLink,
    private readonly shared: Store,
    private readonly local: Store,
  ) {}

  incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void {
    if (!this.link.usable()) {
      this.local.incr(key, callback, timeWindow, max);
      return;
    }
    this.shared.incr(
      key,
      (error, result) => {
        if (!error) return callback(null, result);
        this.link.failed(error);
        this.local.incr(key, callback, timeWindow, max);
      },
      timeWindow,
      max,
    );
  }

  child(routeOptions: RouteOptions): Store {
    return new FallbackStore(this.link, this.shared.child(routeOptions), this.local.child(routeOptions));
  }
}

function storeFor(link: RedisLink, nameSpace: string) {
  return class extends FallbackStore {
    constructor() {
      super(link, new RedisStore(false, false, link.client, nameSpace), new LocalStore(false, false, 5000));
    }
  };
}

/** The fixed window of both limits; tests derive from it how many windows a burst may have spanned. */
export const RATE_LIMIT_WINDOW_MS = 2000;

function rateLimitKey(request: FastifyRequest): string {
  const credential = bearerOf(request);
  return credential ? `c:${createHash('sha256').update(credential).digest('hex').slice(0, 32)}` : `ip:${request.ip}`;
}

/** The general limit per credential (CONTRACT §4); POST /auth opts out, it has its own throttle. */
export async function registerRateLimit(app: App, config: Config, link: RedisLink | null, prefix: string): Promise<void> {
  if (config.rateLimit <= 0) return;
  // A 2-second window of twice the rate: the rate on average, bursts of twice it (docs/decisions.md).
  await app.register(rateLimit, {
    global: true,
    max: Math.max(1, Math.round(config.rateLimit * 2)),
    timeWindow: RATE_LIMIT_WINDOW_MS,
    keyGenerator: rateLimitKey,
    enableDraftSpec: true,
    ...(link ? { store: storeFor(link, `${prefix}rl:`) } : {}),
    errorResponseBuilder: (_request, context) => rateLimited(Math.ceil(context.ttl / 1000)),
  });
}

type StoreLimitHook = (request: FastifyRequest) => Promise<void>;

/**
 * The limit per store (CONTRACT §11, `STOREFRONT_STORE_RATE_LIMIT`): every credential of a store draws on
 * one budget, so one store's burst cannot take the whole service. Same window and store as the limit per
 * credential (shared through Redis, in-process while Redis is down); runs once the credential has named
 * its store. Null when it is off (0, the default).
 */
export function storeRateLimit(config: Config, link: RedisLink | null, prefix: string): StoreLimitHook | null {
  if (config.storeRateLimit <= 0) return null;
  const max = Math.max(1, Math.round(config.storeRateLimit * 2));
  const store: Store = link ? new (storeFor(link, `${prefix}srl:`))() : new LocalStore(false, false, 10_000);
  return (request) => {
    const storeId = request.auth?.storeId;
    if (!storeId) return Promise.resolve();
    return new Promise((resolve, reject) => {
      store.incr(
        `s:${storeId}`,
        (error, result) => {
          if (error || !result || result.current <= max) return resolve();
          reject(rateLimited(Math.ceil(result.ttl / 1000)));
        },
        RATE_LIMIT_WINDOW_MS,
        max,
      );
    });
  };
}
