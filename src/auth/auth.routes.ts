import { Type } from '@sinclair/typebox';
import type { App, AppContext } from '../http/index.js';
import { Body, Envelope, ok } from '../shared/index.js';
import type { SignIn } from './sign-in.js';
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

export async function registerAuthRoutes(app: App, ctx: AppContext, signIn: SignIn): Promise<void> {
  app.post(
    '/auth',
    {
      config: { public: true, rateLimit: false },
      bodyLimit: LOGIN_BODY_LIMIT,
      // Before the body is read, so every request counts, malformed or oversized ones too.
      onRequest: async (request) => signIn.request(request.ip),
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
      const claims = await signIn.verify(request.ip, storeSlug, email, password);
      const accessToken = await issueAccessToken(claims, ctx.config.jwtSecret, ctx.config.tokenTtl);
      return ok({ accessToken, tokenType: 'Bearer', expiresIn: ctx.config.tokenTtl });
    },
  );
}
