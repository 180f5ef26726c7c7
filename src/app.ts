import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController } from 'fastify';
import { registerAddressRoutes } from './addresses/index.js';
import { registerApiKeyRoutes } from './api-keys/index.js';
import { registerAttributeSetRoutes } from './attribute-sets/index.js';
import { registerAttributeRoutes } from './attributes/index.js';
import {
  authenticate,
  connectRedis,
  createCredentialGuard,
  createLoginThrottle,
  registerAuthRoutes,
  registerRateLimit,
  watchCredentials,
} from './auth/index.js';
import { registerCollectionRoutes } from './collections/index.js';
import type { Config } from './config.js';
import { registerCustomerRoutes } from './customers/index.js';
import type { Database } from './db/index.js';
import { handleError } from './errors.js';
import { registerEventRoutes } from './events/index.js';
import { registerExportRoutes } from './exports/index.js';
import type { App, AppContext } from './http/index.js';
import {
  announceStrictHandling,
  assertAccessDeclared,
  capConnections,
  createRouteMirror,
  drainRefusedBody,
  frameworkErrors,
  guardInput,
  loggerOptions,
  openApiOptions,
  registerDocsUi,
  registerHealthRoutes,
  registerSafeWrites,
  serverOptions,
  validatorCompiler,
} from './http/index.js';
import { importJobKinds, registerImports } from './imports/index.js';
import { registerJobs } from './jobs/index.js';
import { createMediaStore, registerMediaRoutes } from './media/index.js';
import { registerOrderRoutes } from './orders/index.js';
import { registerProductRoutes } from './products/index.js';
import { registerWebhooks } from './webhooks/index.js';

export interface BuildOptions {
  config: Config;
  database: Database;
  /** key prefix in Redis, so separate deployments (or test runs) sharing one Redis never mix counters */
  redisPrefix?: string;
  /** where log lines go (default stdout); tests read them */
  logStream?: { write(line: string): void };
}

const SANE_REQUEST_ID = /^[\w.:-]{1,128}$/;

function requestIdOf(request: { headers: Record<string, string | string[] | undefined> }): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** The table of contents of the service: one register per resource. */
export async function buildApp({ config, database, redisPrefix = 'storefront:', logStream }: BuildOptions): Promise<App> {
  const app = Fastify({
    logger: loggerOptions(config.logLevel, logStream),
    bodyLimit: config.bodyLimit,
    genReqId: requestIdOf,
    // One line per request is for debugging; errors are always logged.
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    frameworkErrors,
    ...serverOptions(config),
  }).withTypeProvider<TypeBoxTypeProvider>();
  capConnections(app.server, config.maxConnections, app.log);
  app.addHook('onError', drainRefusedBody(config.bodyDrainBytes));

  // Rate-limit and throttle state: in Redis when configured (shared by instances), else in this process.
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, app.log) : null;
  // Starting with shared state when Redis is there; never waiting long when it is not.
  app.addHook('onReady', async () => redis?.settled(2000));
  app.addHook('onClose', async () => redis?.close());

  // Credentials checked once are trusted from memory until the database announces their revocation.
  const credentials = watchCredentials(database);
  app.addHook('onReady', async () => credentials.settled(2000));
  app.addHook('onClose', async () => credentials.close());

  const ctx: AppContext = { db: database.db, config, media: createMediaStore(config), credentials: credentials.cache };
  const mirror = createRouteMirror();
  app.addHook('onRoute', mirror.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(mirror.notFoundHandler);
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', announceStrictHandling);
  app.addHook('preValidation', guardInput);
  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });

  await app.register(swagger, openApiOptions());
  registerDocsUi(app);
  await registerRateLimit(app, config, redis, redisPrefix);
  registerHealthRoutes(app, database);
  await registerMediaRoutes(app, ctx);

  await app.register(
    async (api: App) => {
      api.addHook('onRoute', assertAccessDeclared);
      registerSafeWrites(api, ctx);
      api.addHook('onRequest', authenticate(ctx, createCredentialGuard(redis, redisPrefix), credentials.cache));
      api.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
      await registerAuthRoutes(api, ctx, createLoginThrottle(redis, redisPrefix));
      await registerApiKeyRoutes(api, ctx);
      await registerAttributeSetRoutes(api, ctx);
      await registerAttributeRoutes(api, ctx);
      await registerProductRoutes(api, ctx);
      await registerCollectionRoutes(api, ctx);
      await registerCustomerRoutes(api, ctx);
      await registerAddressRoutes(api, ctx);
      await registerOrderRoutes(api, ctx);
      await registerEventRoutes(api, ctx);
      await registerExportRoutes(api, ctx, database.engine);
      await registerWebhooks(api, ctx, database.listen);
      await registerImports(api, ctx);
      await registerJobs(api, ctx, database.listen, importJobKinds(ctx, api.log));
    },
    { prefix: '/api/v1' },
  );
  return app;
}
