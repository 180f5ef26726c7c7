import type { FastifyRequest } from 'fastify';
import { apiKeyTag, findLiveApiKey } from '../api-keys/index.js';
import { AppError, forbidden, unauthorized } from '../errors.js';
import type { AppContext, Auth } from '../http/index.js';
import { API_KEY_PATTERN, hashApiKey, hasScope } from '../shared/index.js';
import { adminTag, type CredentialCache } from './credential-cache.js';
import type { CredentialGuard } from './credential-guard.js';
import { adminEmail } from './credentials.sql.js';
import { verifyAccessToken } from './tokens.js';

// One message per reason, one code for all (401 UNAUTHORIZED). `WWW-Authenticate` follows RFC 6750: no error
// when no credential was sent, `invalid_request` for a header not of the form `Bearer <credential>`,
// `invalid_token` for a credential refused. A revoked and an unknown API key share one message on purpose:
// telling them apart would confirm to whoever holds an old leaked key that it once was real
// (docs/decisions.md, "401 messages").
type Refusal = readonly [message: string, error: 'invalid_request' | 'invalid_token' | null];
const MISSING: Refusal = ['Missing bearer credential', null];
const MALFORMED_HEADER: Refusal = ['Malformed Authorization header: expected "Bearer <access token or API key>"', 'invalid_request'];
const MALFORMED: Refusal = ['Malformed bearer credential', 'invalid_token'];
const EXPIRED: Refusal = ['Expired access token', 'invalid_token'];
const BAD_SIGNATURE: Refusal = ['Invalid access token signature', 'invalid_token'];
const GONE: Refusal = ['Access token of an admin or store that no longer exists', 'invalid_token'];
const UNKNOWN_KEY: Refusal = ['Revoked or unknown API key', 'invalid_token'];
const REFUSAL_OF_TOKEN = { malformed: MALFORMED, expired: EXPIRED, signature: BAD_SIGNATURE } as const;

function refuse([message, error]: Refusal): AppError {
  const challenge = error
    ? `Bearer realm="storefront", error="${error}", error_description="${message.replaceAll('"', "'")}"`
    : 'Bearer realm="storefront"';
  return unauthorized(message, challenge);
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The bearer credential, or null when there is none in the form `Bearer <credential>`. */
export function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  return (header && BEARER.exec(header)?.[1]) || null;
}

/**
 * Resolves a bearer credential to its store and scopes, or throws the 401 that says why not. A key or an
 * admin found valid is remembered in `cache`, which forgets it the moment it is revoked or deleted.
 */
export function createCredentialResolver(ctx: AppContext, cache: CredentialCache) {
  async function resolveApiKey(credential: string): Promise<Auth> {
    if (!API_KEY_PATTERN.test(credential)) throw refuse(MALFORMED);
    const hash = hashApiKey(credential);
    const cached = cache.get(hash);
    if (cached) return cached;
    const generation = cache.generation;
    const key = await findLiveApiKey(ctx.db, credential);
    if (!key) throw refuse(UNKNOWN_KEY);
    const auth: Auth = Object.freeze({
      storeId: key.store_id,
      scopes: key.scopes,
      kind: 'key',
      principal: `key:${key.id}`,
      name: key.name,
      keyId: key.id,
    });
    cache.put(hash, apiKeyTag(key.store_id, key.id), auth, generation);
    return auth;
  }

  async function resolveAccessToken(credential: string): Promise<Auth> {
    const claims = await verifyAccessToken(credential, ctx.config.jwtSecret);
    if (typeof claims === 'string') throw refuse(REFUSAL_OF_TOKEN[claims]);
    const tag = adminTag(claims.storeId, claims.adminId);
    const cached = cache.get(tag);
    if (cached) return cached;
    const generation = cache.generation;
    const email = await adminEmail(ctx.db, claims.storeId, claims.adminId);
    if (email === null) throw refuse(GONE);
    const principal = `admin:${claims.adminId}`;
    const auth: Auth = Object.freeze({ storeId: claims.storeId, scopes: ['*'], kind: 'token', principal, name: email });
    cache.put(tag, tag, auth, generation);
    return auth;
  }

  return (credential: string): Promise<Auth> =>
    credential.startsWith('sfk_') ? resolveApiKey(credential) : resolveAccessToken(credential);
}

/** The bearer hook: every route except the public ones resolves a credential and checks its scope. */
export function authenticate(ctx: AppContext, guard: CredentialGuard, cache: CredentialCache) {
  const resolve = createCredentialResolver(ctx, cache);
  return async (request: FastifyRequest): Promise<void> => {
    const config = request.routeOptions.config;
    if (config.public || !request.routeOptions.url) return;
    if (!request.headers.authorization) throw refuse(MISSING);
    // A header that is not `Bearer <credential>` is an invalid credential too, and counts as one.
    const credential = bearerOf(request) ?? '';
    const auth = await guard.resolve(request.ip, credential, async () => {
      if (!credential) throw refuse(MALFORMED_HEADER);
      return resolve(credential);
    });
    // Known before the checks below, so a request they refuse is still in its store's Requests log.
    request.auth = auth;
    if (config.tokenOnly && auth.kind !== 'token') {
      throw new AppError(403, 'FORBIDDEN', 'API keys are managed with an access token, not with an API key');
    }
    const scope = typeof config.scope === 'function' ? config.scope(request) : config.scope;
    if (scope && !hasScope(auth.scopes, scope)) throw forbidden(scope);
  };
}
