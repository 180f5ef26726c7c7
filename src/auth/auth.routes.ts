import { Type } from '@sinclair/typebox';
import { unauthorized } from '../errors.js';
import type { App, AppContext } from '../http/index.js';
import { Body, dummyPasswordHash, Envelope, ok, verifyPassword } from '../shared/index.js';
import { findAdminByEmail, findStoreBySlug } from '../stores/index.js';
import { accountKey, type LoginThrottle } from './throttle.js';
import { issueAccessToken } from './tokens.js';

/** CONTRACT §4: a bigger POST /auth body is a 413 before any work (a valid one is well under 1 KB). */
export const LOGIN_BODY_LIMIT = 16 * 1024;

const LoginBody = Body(
  {
    storeSlug: Type.String({ minLength: 1, maxLength: 64, description: "the store's slug, 1 to 64 characters" }),
    email: Type.String({ minLength: 1, maxLength: 320, description: "the administrator's email address" }),
    password: Type.String({ minLength: 1, maxLength: 256, description: "the administrator's password" }),
  },
  { title: 'Login' },
);

const TokenEnvelope = Envelope(
  Type.Object(
    {
      accessToken: Type.String({ description: 'send it as `Authorization: Bearer <accessToken>`' }),
      tokenType: Type.String({ description: 'always "Bearer"' }),
      expiresIn: Type.Integer({ description: 'seconds' }),
    },
    { title: 'AccessToken', description: 'a bearer token for the administrator, valid for expiresIn seconds' },
  ),
);

/** The admin id for valid credentials, else null; always spends one password verification. */
async function checkCredentials(ctx: AppContext, slug: string, email: string, password: string) {
  const store = await findStoreBySlug(ctx.db, slug);
  const admin = store ? await findAdminByEmail(ctx.db, store.id, email) : undefined;
  const valid = await verifyPassword(password, admin?.password_hash ?? (await dummyPasswordHash()));
  return store && admin && valid ? { storeId: store.id, adminId: admin.id } : null;
}

export async function registerAuthRoutes(app: App, ctx: AppContext, throttle: LoginThrottle): Promise<void> {
  app.post(
    '/auth',
    {
      config: { public: true, rateLimit: false },
      bodyLimit: LOGIN_BODY_LIMIT,
      // Before the body is read, so every request counts, malformed or oversized ones too.
      onRequest: async (request) => throttle.request(request.ip),
      schema: {
        tags: ['Authentication'],
        operationId: 'createAccessToken',
        summary: 'Exchange store admin credentials for an access token',
        description:
          'Throttled: more than 5 failures for one account from one address or 50 from all addresses in 15 minutes, ' +
          'or more than 30 requests from one address in a minute, give 429 with Retry-After.',
        security: [],
        body: LoginBody,
        response: { 200: TokenEnvelope },
      },
    },
    async (request) => {
      const { storeSlug, email, password } = request.body;
      const account = accountKey(storeSlug, email);
      await throttle.admit(request.ip, account);
      const claims = await checkCredentials(ctx, storeSlug, email, password);
      if (!claims) {
        await throttle.failed(request.ip, account);
        throw unauthorized('Invalid store, email or password');
      }
      await throttle.succeeded(request.ip, account);
      const accessToken = await issueAccessToken(claims, ctx.config.jwtSecret, ctx.config.tokenTtl);
      return ok({ accessToken, tokenType: 'Bearer', expiresIn: ctx.config.tokenTtl });
    },
  );
}
