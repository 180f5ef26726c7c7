import type { FastifyRequest } from 'fastify';
import { findLiveApiKey } from '../api-keys/index.js';
import { AppError, forbidden, unauthorized } from '../errors.js';
import type { AppContext, Auth } from '../http/index.js';
import { API_KEY_PATTERN, hasScope } from '../shared/index.js';
import type { CredentialGuard } from './credential-guard.js';
import { adminExists } from './credentials.sql.js';
import { verifyAccessToken } from './tokens.js';
import { TtlSet } from './ttl-set.js';

// One message per reason, one code for all (CONTRACT §3: 401 UNAUTHORIZED, WWW-Authenticate: Bearer).
const MISSING = 'Missing bearer credential';
const MALFORMED = 'Malformed bearer credential';
const EXPIRED = 'Expired access token';
const UNKNOWN = 'Revoked or unknown credential';

// An admin confirmed to exist is trusted this long without asking the database again: a deleted admin
// (or store) is refused at most this late. Revoked API keys are looked up on every request instead.
export const ADMIN_CHECK_TTL_MS = 5000;

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The bearer credential, or null when there is none in the form `Bearer <credential>`. */
export function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  return (header && BEARER.exec(header)?.[1]) || null;
}

async function resolveApiKey(ctx: AppContext, credential: string): Promise<Auth> {
  if (!API_KEY_PATTERN.test(credential)) throw unauthorized(MALFORMED);
  const key = await findLiveApiKey(ctx.db, credential);
  if (!key) throw unauthorized(UNKNOWN);
  return { storeId: key.store_id, scopes: key.scopes, kind: 'key', principal: `key:${key.id}` };
}

/** Resolves a bearer credential to its store and scopes, or throws the 401 that says why not. */
export function createCredentialResolver(ctx: AppContext) {
  const knownAdmins = new TtlSet(ADMIN_CHECK_TTL_MS, 10_000);

  async function resolveAccessToken(credential: string): Promise<Auth> {
    const claims = await verifyAccessToken(credential, ctx.config.jwtSecret);
    if (claims === 'expired') throw unauthorized(EXPIRED);
    if (claims === 'malformed') throw unauthorized(MALFORMED);
    if (claims === 'unknown') throw unauthorized(UNKNOWN);
    const admin = `${claims.storeId}:${claims.adminId}`;
    if (!knownAdmins.has(admin)) {
      if (!(await adminExists(ctx.db, claims.storeId, claims.adminId))) throw unauthorized(UNKNOWN);
      knownAdmins.add(admin);
    }
    return { storeId: claims.storeId, scopes: ['*'], kind: 'token', principal: `admin:${claims.adminId}` };
  }

  return (credential: string): Promise<Auth> =>
    credential.startsWith('sfk_') ? resolveApiKey(ctx, credential) : resolveAccessToken(credential);
}

/** The bearer hook: every route except the public ones resolves a credential and checks its scope. */
export function authenticate(ctx: AppContext, guard: CredentialGuard) {
  const resolve = createCredentialResolver(ctx);
  return async (request: FastifyRequest): Promise<void> => {
    const config = request.routeOptions.config;
    if (config.public || !request.routeOptions.url) return;
    if (!request.headers.authorization) throw unauthorized(MISSING);
    // A header that is not `Bearer <credential>` is an invalid credential too, and counts as one.
    const credential = bearerOf(request) ?? '';
    const auth = await guard.resolve(request.ip, credential, async () => {
      if (!credential) throw unauthorized(MALFORMED);
      return resolve(credential);
    });
    if (config.tokenOnly && auth.kind !== 'token') {
      throw new AppError(403, 'FORBIDDEN', 'API keys are managed with an access token, not with an API key');
    }
    if (config.scope && !hasScope(auth.scopes, config.scope)) throw forbidden(config.scope);
    request.auth = auth;
  };
}
