import { Type } from '@sinclair/typebox';
import { unauthorized } from '../errors.js';
import type { App, AppContext } from '../http/context.js';
import { Body, Envelope } from '../shared/common.schema.js';
import { ok } from '../shared/envelope.js';
import { findAdminByEmail, findStoreBySlug } from '../stores/index.js';
import { dummyPasswordHash, verifyPassword } from './passwords.js';
import type { LoginThrottle } from './throttle.js';
import { issueAccessToken } from './tokens.js';

const LoginBody = Body({
  storeSlug: Type.String({ minLength: 1, maxLength: 64 }),
  email: Type.String({ minLength: 1, maxLength: 320 }),
  password: Type.String({ minLength: 1, maxLength: 256 }),
});

const TokenEnvelope = Envelope(
  Type.Object({ accessToken: Type.String(), tokenType: Type.String(), expiresIn: Type.Integer({ description: 'seconds' }) }),
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
      schema: {
        tags: ['Authentication'],
        summary: 'Exchange store admin credentials for an access token',
        security: [],
        body: LoginBody,
        response: { 200: TokenEnvelope },
      },
    },
    async (request) => {
      const { storeSlug, email, password } = request.body;
      const account = `${storeSlug}\u0000${email.trim().toLowerCase()}`;
      await throttle.admit(request.ip, account);
      const claims = await checkCredentials(ctx, storeSlug, email, password);
      if (!claims) {
        await throttle.failed(account);
        throw unauthorized('Invalid store, email or password');
      }
      await throttle.succeeded(account);
      const accessToken = await issueAccessToken(claims, ctx.config.jwtSecret, ctx.config.tokenTtl);
      return ok({ accessToken, tokenType: 'Bearer', expiresIn: ctx.config.tokenTtl });
    },
  );
}
