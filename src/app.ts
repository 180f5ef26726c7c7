import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Tracer } from '@opentelemetry/api';
import Fastify, { LogController } from 'fastify';
import { registerAddressRoutes } from './addresses/index.js';
import { openApiOptions, registerDocsUi } from './api-docs/index.js';
import { type KeyUsage, registerApiKeyRoutes, startKeyUsage } from './api-keys/index.js';
import { registerAttributeSetRoutes } from './attribute-sets/index.js';
import { attributeRecordKind, registerAttributeRoutes } from './attributes/index.js';
import {
  authenticate,
  connectRedis,
  createCredentialGuard,
  createLoginThrottle,
  createSignIn,
  issueAccessToken,
  registerAuthRoutes,
  registerRateLimit,
  rememberWritePositions,
  storeRateLimit,
  watchCredentials,
} from './auth/index.js';
import { startBlobPurge } from './blobs/index.js';
import { collectionRecordKind, registerCollectionRoutes } from './collections/index.js';
import type { Config } from './config.js';
import { registerConsole } from './console/index.js';
import { customerRecordKind, registerCustomerRoutes } from './customers/index.js';
import type { Database } from './db/index.js';
import { handleError } from './errors.js';
import { type AfterWorkOptions, createAfterWork, newestEventAgeSeconds, registerEvents } from './events/index.js';
import { registerExportRoutes } from './exports/index.js';
import type { App, AppContext } from './http/index.js';
import {
  announceHandling,
  assertAccessDeclared,
  capConnections,
  createConsistency,
  createRouteMirror,
  drainRefusedBody,
  frameworkErrors,
  guardInput,
  type LazySchemas,
  lazySchemas,
  loggerOptions,
  observeAnswers,
  parseJsonBodies,
  registerHealthRoutes,
  registerSafeWrites,
  routeReads,
  serverOptions,
} from './http/index.js';
import { createUploadStore, importJobKinds, registerImports } from './imports/index.js';
import { countActiveJobs, registerJobs } from './jobs/index.js';
import { registerInventoryLevelRoutes, registerLocationRoutes } from './locations/index.js';
import { createMediaStore, registerMediaRoutes } from './media/index.js';
import { createMetrics, registerMetrics } from './metrics/index.js';
import { registerOrderRoutes } from './orders/index.js';
import { registerPriceListRoutes } from './price-lists/index.js';
import { productRecordKind, registerProductRoutes } from './products/index.js';
import { useCursorSecret } from './reads/index.js';
import { type RequestLog, startRequestLog } from './request-log/index.js';
import { type AfterWork, API_PREFIX, validatorCompiler } from './shared/index.js';
import { registerRequestSpans } from './tracing/index.js';
import { deliveryBacklog, registerWebhooks } from './webhooks/index.js';

export interface BuildOptions {
  config: Config;
  database: Database;
  /** key prefix in Redis, so separate deployments (or test runs) sharing one Redis never mix counters */
  redisPrefix?: string;
  /** where log lines go (default stdout); tests read them */
  logStream?: { write(line: string): void };
  /** with tracing on (server.ts): a span per request, its statements as children */
  tracer?: Tracer;
  /** the Requests log to keep (tests pass their own to flush it); default: one started here unless STOREFRONT_REQUEST_LOG=false */
  requestLog?: RequestLog | null;
  /** where API keys' last use is noted (tests pass their own to flush it); default: one started here */
  keyUsage?: KeyUsage;
  /** what every write does after its own work (default: `appAfterWork()`); the bench passes its own */
  afterWork?: AfterWork;
  /** routes' validators and serializers, compiled on first use (tests pass their own to compile them all) */
  schemas?: LazySchemas;
}

/**
 * The after-work of this app's writes (src/shared/after-work.ts): how the feed reads the records a write
 * changed on the side, and which kinds keep stored documents. `options`: the bench's event-cost switch.
 */
export function appAfterWork(options?: AfterWorkOptions): AfterWork {
  return createAfterWork(
    { product: productRecordKind, collection: collectionRecordKind, attribute: attributeRecordKind, customer: customerRecordKind },
    options,
  );
}

const SANE_REQUEST_ID = /^[\w.:-]{1,128}$/;

function requestIdOf(request: { headers: Record<string, string | string[] | undefined> }): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** The table of contents of the service: one register per resource. */
export async function buildApp(options: BuildOptions): Promise<App> {
  const { config, database, redisPrefix = 'storefront:', logStream, tracer } = options;
  const schemas = options.schemas ?? lazySchemas(validatorCompiler);
  const app = Fastify({
    logger: loggerOptions(config.logLevel, logStream),
    bodyLimit: config.bodyLimit,
    genReqId: requestIdOf,
    // One line per request is for debugging; errors are always logged.
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    frameworkErrors,
    schemaController: { compilersFactory: { buildSerializer: schemas.buildSerializer } },
    ...serverOptions(config),
  }).withTypeProvider<TypeBoxTypeProvider>();
  // First of the hooks, so the span covers authentication's statements too.
  if (tracer) registerRequestSpans(app, tracer);
  capConnections(app.server, config.maxConnections, app.log);
  app.addHook('onError', drainRefusedBody(config.bodyDrainBytes));

  // Rate-limit and throttle state: in Redis when configured (shared by instances), else in this process.
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, app.log, config.redisTimeoutMs) : null;
  // Starting with shared state when Redis is there; never waiting long when it is not.
  app.addHook('onReady', async () => redis?.settled(2000));
  app.addHook('onClose', async () => redis?.close());

  // Credentials checked once are trusted from memory until the database announces their revocation.
  const credentials = watchCredentials(database);
  app.addHook('onReady', async () => credentials.settled(2000));
  app.addHook('onClose', async () => credentials.close());

  // list cursors are signed with the deployment's secret, so any of its processes follows another's cursor
  useCursorSecret(config.jwtSecret);
  // A write's after-work (events, derived changes, stored documents): on the context of the write door and the imports.
  const afterWork = options.afterWork ?? appAfterWork();
  // With read replicas: each credential's newest write position (in Redis when set), so its reads see its writes.
  const positions = rememberWritePositions(redis, redisPrefix);
  const consistency = database.replicas ? createConsistency(database.replicas, positions) : null;
  const media = createMediaStore(config, database);
  const ctx: AppContext = { db: database.db, config, media, credentials: credentials.cache, afterWork, consistency };
  // Import uploads: in the database on PostgreSQL, so any process may run (or resume) the job.
  const uploads = createUploadStore(config.dataDir, database);
  const stopBlobPurge = startBlobPurge(database.db, app.log);
  app.addHook('onClose', async () => stopBlobPurge());
  // Prometheus metrics (GET /metrics): the database's state is read at scrape time through these.
  const metrics = createMetrics(
    {
      pool: () => database.poolStats(),
      jobs: () => countActiveJobs(database.db),
      deliveries: () => deliveryBacklog(database.db),
      newestEventAgeSeconds: () => newestEventAgeSeconds(database.db),
      // read at scrape time only, after requestLog below is made
      requestLogRows: () => requestLog?.stats() ?? null,
      replicas: () => database.replicas?.states() ?? [],
    },
    (error) => app.log.warn({ err: error }, 'metrics: reading the database state failed'),
  );
  // Each process keeps its requests per store and writes them in batches (src/request-log); closing the app writes the rest.
  const requestLog =
    options.requestLog !== undefined
      ? options.requestLog
      : config.requestLog
        ? startRequestLog(database.db, config.requestLogDays, app.log)
        : null;
  app.addHook('onClose', async () => requestLog?.close());
  // Each API key's last use, noted per process and written once a minute (src/api-keys/last-used.ts).
  const keyUsage = options.keyUsage ?? startKeyUsage(database.db, app.log);
  app.addHook('onClose', async () => keyUsage.close());
  // every answered request, once: counted for /metrics, the key's last use noted, kept in its store's Requests log
  const observers = [metrics.observeRequest, keyUsage.observe];
  observeAnswers(app, requestLog ? [...observers, requestLog.observe] : observers);
  registerMetrics(app, config, metrics);
  const mirror = createRouteMirror();
  app.addHook('onRoute', mirror.onRoute);
  app.setValidatorCompiler(schemas.validatorCompiler);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(mirror.notFoundHandler);
  app.removeContentTypeParser('text/plain');
  parseJsonBodies(app);
  app.addHook('onRequest', announceHandling);
  app.addHook('preValidation', guardInput);
  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });

  await app.register(swagger, openApiOptions());
  registerDocsUi(app);
  await registerRateLimit(app, config, redis, redisPrefix);
  registerHealthRoutes(app, database);
  // One sign-in (password check and throttle state) for POST /auth and the console's form.
  const signIn = createSignIn(ctx, createLoginThrottle(redis, redisPrefix));
  // The console reads through the API with short-lived tokens of the signed-in admin (src/console/api.ts).
  const issueToken = (claims: { storeId: string; adminId: string }) => issueAccessToken(claims, config.jwtSecret, 300);
  await registerConsole(app, ctx, { signIn, issueToken });
  await registerMediaRoutes(app, ctx);

  await app.register(
    async (api: App) => {
      api.addHook('onRoute', assertAccessDeclared);
      registerSafeWrites(api, ctx);
      // GETs on a replica that has replayed what the request needs (docs/scaling.md §4)
      const { replicas } = database;
      if (replicas) routeReads(api, { replicas, memory: positions, waitMs: config.replicaWaitMs, observe: metrics.observeRead });
      api.addHook('onRequest', authenticate(ctx, createCredentialGuard(redis, redisPrefix), credentials.cache));
      // once the credential has named its store: that store's budget (off unless STOREFRONT_STORE_RATE_LIMIT)
      const perStore = storeRateLimit(config, redis, redisPrefix);
      if (perStore) api.addHook('onRequest', perStore);
      api.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
      await registerAuthRoutes(api, ctx, signIn);
      await registerApiKeyRoutes(api, ctx);
      await registerAttributeSetRoutes(api, ctx);
      await registerAttributeRoutes(api, ctx);
      await registerProductRoutes(api, ctx);
      await registerLocationRoutes(api, ctx);
      await registerInventoryLevelRoutes(api, ctx);
      await registerPriceListRoutes(api, ctx);
      await registerCollectionRoutes(api, ctx);
      await registerCustomerRoutes(api, ctx);
      await registerAddressRoutes(api, ctx);
      await registerOrderRoutes(api, ctx);
      await registerEvents(api, ctx, database.listen);
      await registerExportRoutes(api, ctx, database.engine);
      await registerWebhooks(api, ctx, database.listen, metrics.observeWebhookAttempt);
      await registerImports(api, ctx, uploads);
      await registerJobs(api, ctx, database.listen, importJobKinds(ctx, uploads, api.log, undefined, metrics.importLinesProcessed));
    },
    { prefix: API_PREFIX },
  );
  return app;
}
