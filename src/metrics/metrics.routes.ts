import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError, unauthorized } from '../errors.js';
import type { App } from '../http/index.js';
import type { Metrics } from './metrics.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'));
}

/**
 * Who may read GET /metrics (CONTRACT §11): with STOREFRONT_METRICS_TOKEN, a bearer of it; without, only
 * loopback addresses, unless STOREFRONT_METRICS_PUBLIC. The peer address is the socket's (a proxy header
 * could be forged).
 */
function checkAccess(config: Config, request: FastifyRequest): void {
  if (config.metricsToken) {
    // The scheme is case-insensitive (RFC 9110 §11.1), as the API's own bearer check has it.
    const given = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!timingSafeEqual(digest(given), digest(config.metricsToken))) throw unauthorized('GET /metrics needs the metrics token');
    return;
  }
  if (config.metricsPublic || isLoopback(request.socket.remoteAddress)) return;
  throw new AppError(
    403,
    'FORBIDDEN',
    'GET /metrics answers loopback addresses only (set STOREFRONT_METRICS_TOKEN or STOREFRONT_METRICS_PUBLIC)',
  );
}

/**
 * GET /metrics (outside /api/v1, not part of the API document). Requests are counted by
 * `metrics.observeRequest`, one of the observers app.ts hands to src/http's observeAnswers.
 */
export function registerMetrics(app: App, config: Config, metrics: Metrics): void {
  app.get('/metrics', { config: { public: true, rateLimit: false }, schema: { hide: true } }, async (request, reply) => {
    checkAccess(config, request);
    const text = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(text);
  });
}
