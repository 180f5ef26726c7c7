import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError, invalidField } from '../errors.js';

export const KEY_HEADER = 'idempotency-key';

/** What a request with a usable key claims: the key, and the request it is bound to. */
export interface KeyClaim {
  key: string;
  fingerprint: string;
  method: string;
  path: string;
}

// 1 to 255 printable ASCII characters, no space (CONTRACT §9.1).
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The request's claim, null without the header; a malformed key is a 400 before anything else happens. */
export function claimOf(request: FastifyRequest): KeyClaim | null {
  const raw = request.headers[KEY_HEADER];
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !KEY_PATTERN.test(raw)) {
    throw invalidField('Idempotency-Key', 'must be 1 to 255 printable ASCII characters (no spaces)', 'header');
  }
  return { key: raw, fingerprint: fingerprintOf(request), method: request.method, path: request.url };
}

/**
 * The request a key is bound to: method, path with query string, and body. The body as parsed (before
 * validation drops or defaults anything), so a retry of the same bytes always matches.
 */
function fingerprintOf(request: FastifyRequest): string {
  const body = request.body === undefined ? '' : JSON.stringify(request.body);
  return createHash('sha256').update(`${request.method}\n${request.url}\n`).update(body).digest('base64url');
}

/** A 64-bit advisory-lock id for one store's key (a collision only makes two requests take turns). */
export function lockIdOf(storeId: string, key: string): string {
  return createHash('sha256').update(`${storeId}\n${key}`).digest().readBigInt64BE(0).toString();
}

export const keyInUse = () =>
  new AppError(409, 'IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry shortly', [], {
    'Retry-After': '1',
  });

export const keyReused = (method: string, path: string) =>
  new AppError(
    422,
    'IDEMPOTENCY_KEY_REUSED',
    `This Idempotency-Key was already used for a different request (first used by ${method} ${path}); use a new key`,
  );
