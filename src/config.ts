import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Everything the process reads from its environment, validated once at start. */
export interface Config {
  host: string;
  port: number;
  databaseUrl: string | null;
  dataDir: string;
  jwtSecret: string;
  publicUrl: string;
  tokenTtl: number;
  /** the longest a console session lasts (CONTRACT §12), hours */
  consoleSessionHours: number;
  redisUrl: string | null;
  /** a Redis command slower than this falls back to in-process state (CONTRACT §4: within 100 ms) */
  redisTimeoutMs: number;
  rateLimit: number;
  logLevel: string;
  demo: boolean;
  bodyLimit: number;
  mediaMaxBytes: number;
  mediaMaxImages: number;
  /** the HTTP server's limits on slow, idle and too many clients (README, "Configuration") */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  socketTimeoutMs: number;
  maxConnections: number;
  /** how much of an over-limit body is read and discarded so the client can read its 413 */
  bodyDrainBytes: number;
  shutdownTimeoutMs: number;
  dbPoolSize: number;
  /** streaming replicas of DATABASE_URL that reads may go to (docs/scaling.md §4); PostgreSQL only */
  replicaUrls: string[];
  /** how long a read that needs a newer position than every replica has waits for one before it reads the primary */
  replicaWaitMs: number;
  /** a replica further behind than this is skipped until it catches up */
  replicaMaxLagMs: number;
  /** seconds an Idempotency-Key's outcome is kept (then the key is free again) */
  idempotencyTtl: number;
  /** days an event stays in the feed (then the background purge deletes it) */
  eventRetentionDays: number;
  /** server processes `serve` runs (`--workers`); more than one needs PostgreSQL and Redis (src/cluster.ts) */
  workers: number;
  /** seconds between a webhook delivery's attempts: n entries, n + 1 attempts (jittered) */
  webhookRetrySchedule: number[];
  /** webhook URLs may point at loopback, private and link-local addresses (tests, private networks) */
  webhookAllowPrivate: boolean;
  /** how long a webhook receiver has to answer */
  webhookTimeoutMs: number;
  /** how long a claimed attempt stays leased: one cut by a kill is sent again after it (webhookLeaseSeconds) */
  webhookLeaseSeconds: number;
  /** this process runs a webhook delivery worker (every process may; they never send one attempt twice) */
  webhookWorker: boolean;
  /** days a finished webhook delivery (succeeded or failed) is kept after its last attempt, then purged */
  webhookDeliveryRetentionDays: number;
  /** the largest NDJSON body POST /imports takes (streamed to a file under dataDir, never held in memory) */
  importMaxBytes: number;
  /** this process runs a job runner (every process may; a job runs in one process at a time) */
  jobRunner: boolean;
  /** how long a running job's claim lasts without a heartbeat: a job of a dead process resumes after it */
  jobLeaseSeconds: number;
  /** days a finished job (with its errors and upload) is kept after it ended, then purged */
  jobRetentionDays: number;
  /** a directory the operator shares between machines for media; null: the database (PostgreSQL) or the data dir (embedded) */
  mediaDir: string | null;
  /** requests per second for all of one store's credentials together; 0: no per-store limit */
  storeRateLimit: number;
  /** GET /metrics needs `Authorization: Bearer <this>` when set */
  metricsToken: string | null;
  /** without a metrics token, GET /metrics answers every address (else loopback only) */
  metricsPublic: boolean;
  /** where traces go (OTLP over HTTP); null: no tracing at all */
  otlpEndpoint: string | null;
  /** API requests are kept per store for the console's Requests screen (src/request-log) */
  requestLog: boolean;
  /** days a request stays in the log (besides the newest 10,000 per store) */
  requestLogDays: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function fail(name: string, why: string): never {
  throw new ConfigError(`${name} ${why}`);
}

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) fail(name, `must be an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) fail(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function readNumber(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !Number.isFinite(value)) fail(name, `must be a number >= 0, got "${raw}"`);
  return value;
}

function readUrl(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail(name, 'is not a valid URL');
  }
  if (!protocols.includes(url.protocol)) fail(name, `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  return raw;
}

/** STOREFRONT_REPLICA_URLS: comma-separated PostgreSQL URLs, at most 16. */
function readReplicas(env: Env) {
  const name = 'STOREFRONT_REPLICA_URLS';
  const urls = (env[name] ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
  if (urls.length > 16) fail(name, `takes at most 16 URLs, got ${urls.length}`);
  for (const url of urls) readUrl({ [name]: url }, name, ['postgres:', 'postgresql:']);
  return {
    replicaUrls: urls,
    replicaWaitMs: readInt(env, 'STOREFRONT_REPLICA_WAIT_MS', 200, 0, 10_000),
    replicaMaxLagMs: readInt(env, 'STOREFRONT_REPLICA_MAX_LAG_MS', 5_000, 100, 3_600_000),
  };
}

const DEFAULT_RETRY_SCHEDULE = '5,30,120,600,1800,3600,7200,14400,28800,43200';

/** Seconds between attempts, comma-separated (fractions allowed). */
function readSchedule(env: Env, name: string): number[] {
  const raw = env[name] || DEFAULT_RETRY_SCHEDULE;
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.length > 50 || parts.some((part) => !/^\d+(\.\d+)?$/.test(part) || Number(part) > 7 * 86_400)) {
    fail(name, `must be up to 50 comma-separated numbers of seconds (each at most 604800), got "${raw}"`);
  }
  return parts.map(Number);
}

function readBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  return fail(name, `must be true or false, got "${raw}"`);
}

/** Embedded mode keeps one generated secret in the data dir so tokens survive restarts. */
function embeddedJwtSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

function readJwtSecret(env: Env, databaseUrl: string | null, dataDir: string): string {
  const raw = env.STOREFRONT_JWT_SECRET;
  if (raw !== undefined && raw !== '') {
    if (Buffer.byteLength(raw) < 32) fail('STOREFRONT_JWT_SECRET', 'must be at least 32 bytes');
    return raw;
  }
  if (databaseUrl) fail('STOREFRONT_JWT_SECRET', 'is required with DATABASE_URL (at least 32 bytes)');
  return embeddedJwtSecret(dataDir);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Timeouts and caps of the HTTP server; the headers must arrive before the whole request may. */
function readServerLimits(env: Env) {
  const headersTimeoutMs = readInt(env, 'STOREFRONT_HEADERS_TIMEOUT_MS', 10_000, 100, HOUR);
  const requestTimeoutMs = readInt(env, 'STOREFRONT_REQUEST_TIMEOUT_MS', 2 * MINUTE, 100, 24 * HOUR);
  if (headersTimeoutMs > requestTimeoutMs) {
    fail('STOREFRONT_HEADERS_TIMEOUT_MS', `must not exceed STOREFRONT_REQUEST_TIMEOUT_MS (${requestTimeoutMs}), got ${headersTimeoutMs}`);
  }
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: readInt(env, 'STOREFRONT_KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, HOUR),
    socketTimeoutMs: readInt(env, 'STOREFRONT_SOCKET_TIMEOUT_MS', MINUTE, 100, 24 * HOUR),
    maxConnections: readInt(env, 'STOREFRONT_MAX_CONNECTIONS', 1_000, 1, 1_000_000),
    bodyDrainBytes: readInt(env, 'STOREFRONT_BODY_DRAIN_BYTES', 64 * 1024 * 1024, 0, 1024 * 1024 * 1024),
    shutdownTimeoutMs: readInt(env, 'STOREFRONT_SHUTDOWN_TIMEOUT_MS', 30_000, 100, HOUR),
    dbPoolSize: readInt(env, 'STOREFRONT_DB_POOL_SIZE', 10, 1, 1_000),
  };
}

/**
 * A webhook attempt's claim, by default the receiver's timeout and 30 s more for its outcome to be recorded. An
 * attempt cut by a kill is sent again only once its lease ends, so a shorter one resends sooner after a crash;
 * it must outlast the timeout, or an attempt still waiting for its answer would be claimed and sent again.
 */
export const webhookLeaseSeconds = (timeoutMs: number) => Math.ceil(timeoutMs / 1000) + 30;

function readWebhookDelivery(env: Env) {
  const webhookTimeoutMs = readInt(env, 'STOREFRONT_WEBHOOK_TIMEOUT_MS', 10_000, 100, 10 * MINUTE);
  const lease = readInt(env, 'STOREFRONT_WEBHOOK_LEASE_SECONDS', webhookLeaseSeconds(webhookTimeoutMs), 1, HOUR / 1000);
  if (lease * 1000 <= webhookTimeoutMs) {
    fail('STOREFRONT_WEBHOOK_LEASE_SECONDS', `must outlast STOREFRONT_WEBHOOK_TIMEOUT_MS (${webhookTimeoutMs} ms), got ${lease} s`);
  }
  return {
    webhookRetrySchedule: readSchedule(env, 'STOREFRONT_WEBHOOK_RETRY_SCHEDULE'),
    webhookAllowPrivate: readBoolean(env, 'STOREFRONT_WEBHOOK_ALLOW_PRIVATE', false),
    webhookTimeoutMs,
    webhookLeaseSeconds: lease,
    webhookWorker: readBoolean(env, 'STOREFRONT_WEBHOOK_WORKER', true),
    webhookDeliveryRetentionDays: readInt(env, 'STOREFRONT_WEBHOOK_DELIVERY_RETENTION_DAYS', 30, 1, 3650),
  };
}

function readObservability(env: Env) {
  const metricsToken = env.STOREFRONT_METRICS_TOKEN || null;
  if (metricsToken !== null && Buffer.byteLength(metricsToken) < 16) fail('STOREFRONT_METRICS_TOKEN', 'must be at least 16 bytes');
  return {
    metricsToken,
    metricsPublic: readBoolean(env, 'STOREFRONT_METRICS_PUBLIC', false),
    otlpEndpoint: readUrl(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']),
    requestLog: readBoolean(env, 'STOREFRONT_REQUEST_LOG', true),
    requestLogDays: readInt(env, 'STOREFRONT_REQUEST_LOG_DAYS', 7, 1, 3650),
  };
}

export function loadConfig(env: Env = process.env): Config {
  const host = env.HOST || '127.0.0.1';
  const port = readInt(env, 'PORT', 3000, 0, 65535);
  const databaseUrl = readUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const dataDir = resolve(env.STOREFRONT_DATA_DIR || './data');
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) fail('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  const publicUrl = readUrl(env, 'STOREFRONT_PUBLIC_URL', ['http:', 'https:']) ?? `http://${host}:${port}`;
  return {
    host,
    port,
    databaseUrl,
    dataDir,
    jwtSecret: readJwtSecret(env, databaseUrl, dataDir),
    publicUrl: publicUrl.replace(/\/+$/, ''),
    tokenTtl: readInt(env, 'STOREFRONT_TOKEN_TTL', 3600, 60, 31_536_000),
    consoleSessionHours: readInt(env, 'STOREFRONT_CONSOLE_SESSION_HOURS', 12, 1, 24 * 30),
    redisUrl: readUrl(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisTimeoutMs: readInt(env, 'STOREFRONT_REDIS_TIMEOUT_MS', 80, 10, 10_000),
    rateLimit: readNumber(env, 'STOREFRONT_RATE_LIMIT', 50),
    logLevel,
    demo: readBoolean(env, 'STOREFRONT_DEMO', true),
    bodyLimit: readInt(env, 'STOREFRONT_BODY_LIMIT', 25 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    mediaMaxBytes: readInt(env, 'STOREFRONT_MEDIA_MAX_BYTES', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    mediaMaxImages: readInt(env, 'STOREFRONT_MEDIA_MAX_IMAGES', 250, 1, 10_000),
    ...readServerLimits(env),
    ...readReplicas(env),
    idempotencyTtl: readInt(env, 'STOREFRONT_IDEMPOTENCY_TTL', 86_400, 1, 31_536_000),
    eventRetentionDays: readInt(env, 'STOREFRONT_EVENT_RETENTION_DAYS', 30, 1, 3650),
    workers: readInt(env, 'STOREFRONT_WORKERS', 1, 1, 64),
    ...readWebhookDelivery(env),
    importMaxBytes: readInt(env, 'STOREFRONT_IMPORT_MAX_BYTES', 1024 * 1024 * 1024, 1, 1024 * 1024 * 1024 * 1024),
    jobRunner: readBoolean(env, 'STOREFRONT_JOB_RUNNER', true),
    jobLeaseSeconds: readInt(env, 'STOREFRONT_JOB_LEASE_SECONDS', 30, 1, HOUR),
    jobRetentionDays: readInt(env, 'STOREFRONT_JOB_RETENTION_DAYS', 30, 1, 3650),
    mediaDir: env.STOREFRONT_MEDIA_DIR ? resolve(env.STOREFRONT_MEDIA_DIR) : null,
    storeRateLimit: readNumber(env, 'STOREFRONT_STORE_RATE_LIMIT', 0),
    ...readObservability(env),
  };
}
