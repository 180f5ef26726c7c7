import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import { notFound } from '../errors.js';
import type { App, AppContext } from '../http/index.js';
import { createConsoleApi, type IssueToken } from './api.js';
import { loadConsoleAssets, serveAsset } from './assets.js';
import { consoleErrorHandler } from './errors.js';
import { NAV } from './layout.js';
import { type ConsoleSignIn, registerLogin } from './login.js';
import { type ConsoleRouter, createRouter } from './router.js';
import { registerScreens } from './screens.js';
import { createSessionGuard } from './session-guard.js';

/** Every console answer: scripts and styles from this origin only, never in a frame (CONTRACT §12). */
const CONTENT_SECURITY_POLICY = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

async function securityHeaders(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'same-origin');
  // A page shows one store's data to one session: no shared cache keeps it (assets set their own).
  if (!request.url.startsWith('/console/assets/')) reply.header('cache-control', 'no-store');
}

/** The navigation entries no screen serves yet answer a plain page saying so. */
function registerComing(router: ConsoleRouter): void {
  for (const entry of NAV) {
    if (router.served.has(entry.path)) continue;
    router.page(entry.path.slice('/console'.length), {}, async () => ({
      title: entry.name,
      nav: entry.name,
      body: html`<p>Coming: this screen is being built.</p>`,
    }));
  }
}

export interface ConsoleDeps {
  signIn: ConsoleSignIn;
  issueToken: IssueToken;
}

/** `/console`: the store seen in a browser (docs/console.md), served by every process. */
export async function registerConsole(app: App, ctx: AppContext, deps: ConsoleDeps): Promise<void> {
  const assets = loadConsoleAssets();
  await app.register(
    async (scope: App) => {
      // Pages, not operations of the API: never in the OpenAPI document.
      scope.addHook('onRoute', (route) => {
        route.schema = { ...route.schema, hide: true };
      });
      await scope.register(cookie);
      await scope.register(formbody, { bodyLimit: 64 * 1024 });
      // an import's file (the Imports screen): one file, streamed on to POST /imports, whose own limit (a byte under this) refuses it
      await scope.register(multipart, { limits: { files: 1, fields: 8, fieldSize: 1024, fileSize: ctx.config.importMaxBytes + 1 } });
      scope.decorateRequest('consoleSession', null as never);
      scope.addHook('onRequest', securityHeaders);
      scope.setErrorHandler(consoleErrorHandler(assets));
      scope.setNotFoundHandler(async () => {
        throw notFound('Page');
      });
      scope.get(
        '/assets/:file',
        { config: { rateLimit: false }, schema: { params: Type.Object({ file: Type.String({ maxLength: 100 }) }) } },
        serveAsset(assets),
      );
      const guard = createSessionGuard(ctx);
      registerLogin(scope, { ctx, assets, signIn: deps.signIn, guard });
      const router = createRouter(scope, assets, guard);
      registerScreens(router, { ctx, api: createConsoleApi(app, deps.issueToken) });
      registerComing(router);
    },
    { prefix: '/console' },
  );
}
