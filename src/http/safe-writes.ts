import type { RouteOptions } from 'fastify';
import { checkKeyBeforeValidation, startKeyPurge } from '../idempotency/index.js';
import type { App, AppContext } from './context.js';

const WRITE_METHODS = new Set(['POST', 'PATCH', 'DELETE']);

function isKeyedWrite(route: RouteOptions): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  // A public write (POST /auth) has no store to keep its keys in.
  return methods.some((method) => WRITE_METHODS.has(method)) && !route.config?.public;
}

function appendPreValidation(route: RouteOptions, hook: NonNullable<RouteOptions['preValidation']>): void {
  const existing = route.preValidation ?? [];
  route.preValidation = [...(Array.isArray(existing) ? existing : [existing]), hook] as never;
}

/**
 * Safe retries and versions (CONTRACT §9.1, §9.2) for every route registered after this call in `api`:
 * each write checks its Idempotency-Key before validation (sendWrite records the outcome), and the
 * background purge of expired keys runs while the app is open.
 */
export function registerSafeWrites(api: App, ctx: AppContext): void {
  const checkKey = checkKeyBeforeValidation(ctx.db);
  api.addHook('onRoute', (route) => {
    if (isKeyedWrite(route)) appendPreValidation(route, checkKey);
  });
  const stopPurge = startKeyPurge(ctx.db, ctx.config.idempotencyTtl, api.log);
  api.addHook('onClose', async () => stopPurge());
}
