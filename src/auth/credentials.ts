import type { FastifyRequest } from 'fastify';
import { findLiveApiKey } from '../api-keys/index.js';
import { AppError, forbidden, unauthorized } from '../errors.js';
import type { AppContext, Auth } from '../http/context.js';
import { hasScope } from './scopes.js';
import { API_KEY_PATTERN, verifyAccessToken } from './tokens.js';

export function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/** Resolves a bearer credential to its store and scopes; every failure is the same 401. */
export async function resolveCredential(ctx: AppContext, credential: string | null): Promise<Auth> {
  if (!credential) throw unauthorized();
  if (credential.startsWith('sfk_')) {
    const key = API_KEY_PATTERN.test(credential) ? await findLiveApiKey(ctx.db, credential) : undefined;
    if (!key) throw unauthorized();
    return { storeId: key.store_id, scopes: key.scopes, kind: 'key', principal: `key:${key.id}` };
  }
  const claims = await verifyAccessToken(credential, ctx.config.jwtSecret);
  if (!claims) throw unauthorized();
  return { storeId: claims.storeId, scopes: ['*'], kind: 'token', principal: `admin:${claims.adminId}` };
}

/** The bearer hook: every route except the public ones resolves a credential and checks its scope. */
export function authenticate(ctx: AppContext) {
  return async (request: FastifyRequest): Promise<void> => {
    const config = request.routeOptions.config;
    if (config.public || !request.routeOptions.url) return;
    const auth = await resolveCredential(ctx, bearerOf(request));
    if (config.tokenOnly && auth.kind !== 'token') {
      throw new AppError(403, 'FORBIDDEN', 'API keys are managed with an access token, not with an API key');
    }
    if (config.scope && !hasScope(auth.scopes, config.scope)) throw forbidden(config.scope);
    request.auth = auth;
  };
}
