import { Type } from '@sinclair/typebox';
import { html } from 'ghtml';
import { AppError } from '../errors.js';
import type { App, AppContext } from '../http/index.js';
import type { ConsoleAssets } from './assets.js';
import { renderBarePage } from './layout.js';
import { type ConsoleSessionGuard, crossSite, csrfRefused } from './session-guard.js';
import { type AdminClaims, endSession, startSession } from './sessions.js';

/** The sign-in POST /auth uses (src/auth's createSignIn, passed in by app.ts): one password check, one throttle. */
export interface ConsoleSignIn {
  request(address: string): Promise<void>;
  verify(address: string, storeSlug: string, email: string, password: string): Promise<AdminClaims>;
}

const LoginForm = Type.Object({
  store: Type.String({ maxLength: 64 }),
  email: Type.String({ maxLength: 320 }),
  password: Type.String({ maxLength: 256 }),
  next: Type.Optional(Type.String({ maxLength: 2000 })),
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
});

/** Only a path of the console itself: never a redirect to another host. */
const safeNext = (next: string | undefined) =>
  next && /^\/console(\/[\w\-./?=&%]*)?$/.test(next) && !next.startsWith('//') ? next : '/console';

interface LoginValues {
  store?: string;
  email?: string;
  next?: string;
  error?: string;
}

function loginBody(values: LoginValues): string {
  const error = values.error ? html`<p class="error" role="alert">${values.error}</p>` : '';
  return html`<section class="login" aria-labelledby="login-title">
<h1 id="login-title">Sign in to the Storefront console</h1>
!${error}
<form method="post" action="/console/login">
<input type="hidden" name="next" value="${values.next ?? ''}">
<div class="field"><label for="store">Store</label><input id="store" name="store" autocomplete="organization" required maxlength="64" value="${values.store ?? ''}"></div>
<div class="field"><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required maxlength="320" value="${values.email ?? ''}"></div>
<div class="field"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256"></div>
<button type="submit">Sign in</button>
</form>
</section>`;
}

export interface LoginDeps {
  ctx: AppContext;
  assets: ConsoleAssets;
  signIn: ConsoleSignIn;
  guard: ConsoleSessionGuard;
}

/** GET and POST /console/login, POST /console/logout. */
export function registerLogin(scope: App, { ctx, assets, signIn, guard }: LoginDeps): void {
  const page = (values: LoginValues) => renderBarePage(assets, 'Sign in', loginBody(values));

  scope.get(
    '/login',
    { schema: { querystring: Type.Object({ next: Type.Optional(Type.String({ maxLength: 2000 })) }) } },
    async (request, reply) => reply.type('text/html; charset=utf-8').send(page({ next: request.query.next })),
  );

  scope.post(
    '/login',
    {
      config: { rateLimit: false },
      bodyLimit: 16 * 1024,
      // Before the body is read, as POST /auth: every request counts.
      onRequest: async (request) => signIn.request(request.ip),
      schema: { body: LoginForm },
    },
    async (request, reply) => {
      // No session yet, so no session token: a sign-in posted from another site is refused by its Origin.
      if (crossSite(request)) throw csrfRefused();
      const { store, email, password, next } = request.body;
      let claims: AdminClaims;
      try {
        claims = await signIn.verify(request.ip, store, email, password);
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 401) throw error;
        return reply
          .code(401)
          .type('text/html; charset=utf-8')
          .send(page({ store, email, next, error: 'Wrong store, email or password.' }));
      }
      const value = await startSession(ctx.db, claims, ctx.config.consoleSessionHours);
      guard.setCookie(reply, value);
      return reply.redirect(safeNext(next), 303);
    },
  );

  scope.post('/logout', { preValidation: guard.requireAction }, async (request, reply) => {
    await endSession(ctx.db, request.consoleSession);
    guard.clearCookie(reply);
    return reply.redirect('/console/login', 303);
  });
}
