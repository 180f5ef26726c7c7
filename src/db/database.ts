import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { acquireDataDirLock } from './lock-file.js';
import { type Listener, listenPglite, type NotificationHandlers, postgresListener } from './notifications.js';
import { PgliteWorkerClient } from './pglite-client.js';
import { pgliteDialect } from './pglite-driver.js';
import { openReplicas, type Replicas, routesReadsOf } from './replicas.js';
import type { DB } from './schema.generated.js';
import { observedDialect, type StatementObserver } from './statements/observed.js';
import { preparingPool } from './statements/prepared.js';
import { StatsKeeper } from './statements/stats-keeper.js';

export type Db = Kysely<DB>;

/** The connection pool of this process, for GET /metrics. */
export interface PoolStats {
  /** connections open */
  total: number;
  /** connections checked out by a query or a transaction */
  inUse: number;
  /** callers waiting for a connection */
  waiting: number;
}

export interface Database {
  db: Db;
  /** PostgreSQL: the pool's state now; the embedded engine has one session and no pool (null) */
  poolStats(): PoolStats | null;
  engine: 'pglite' | 'postgres';
  /** PostgreSQL with STOREFRONT_REPLICA_URLS: where reads may go (replicas.ts); else null, every statement on the primary */
  replicas: Replicas | null;
  /** keeps planner statistics fresh as tables grow (stats-keeper.ts) */
  stats: StatsKeeper;
  ping(): Promise<void>;
  /** LISTEN on `channel` in the background (PostgreSQL: the process's one listening connection, reconnected when lost) */
  listen(channel: string, handlers: NotificationHandlers): Listener;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  poolSize?: number;
  /** PostgreSQL: how long a query waits for a connection (a new one, or a free one of the pool) before failing (5 s) */
  connectTimeoutMs?: number;
  /** sees every statement sent (tracing, tests): observed.ts */
  observeStatement?: StatementObserver;
  /** PostgreSQL only: streaming replicas of `databaseUrl` reads may go to (ignored by the embedded engine) */
  replicaUrls?: string[];
  /** a replica further behind than this is skipped (5 s) */
  replicaMaxLagMs?: number;
}

// PGlite runs without autovacuum: dead rows are kept in check on a timer (statistics also by the StatsKeeper as tables grow).
const VACUUM_EVERY_MS = 10 * 60 * 1000;

/** The listeners a database has opened: closing the database closes those still open. */
function openListeners() {
  const open = new Set<Listener>();
  return {
    add(listener: Listener): Listener {
      open.add(listener);
      return {
        ...listener,
        close: async () => {
          open.delete(listener);
          await listener.close();
        },
      };
    },
    close: () => Promise.all([...open].map((listener) => listener.close())),
  };
}

/**
 * initdb leaves ~600 MB of WASM memory behind in its worker, so a brand-new data dir is created by a
 * first worker that then stops, and the server runs on a fresh one.
 */
async function startPgliteWorker(pgDir: string): Promise<PgliteWorkerClient> {
  const fresh = !existsSync(join(pgDir, 'PG_VERSION'));
  const client = new PgliteWorkerClient(pgDir);
  await client.ready;
  if (!fresh) return client;
  await client.close();
  return startPgliteWorker(pgDir);
}

async function openPglite(dataDir: string, observe?: StatementObserver): Promise<Database> {
  const release = acquireDataDirLock(dataDir);
  let client: PgliteWorkerClient;
  try {
    client = await startPgliteWorker(join(dataDir, 'pg'));
  } catch (error) {
    release();
    throw error;
  }
  const stats = new StatsKeeper();
  const db = new Kysely<DB>({ dialect: observedDialect(pgliteDialect(client), observe), plugins: [stats] });
  stats.attach(db);
  const listeners = openListeners();
  const vacuum = setInterval(() => {
    sql`VACUUM ANALYZE`.execute(db).catch(() => undefined);
  }, VACUUM_EVERY_MS);
  vacuum.unref();
  return {
    db,
    engine: 'pglite',
    replicas: null,
    stats,
    poolStats: () => null,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    listen: (channel, handlers) => listeners.add(listenPglite(client, db, channel, handlers)),
    close: async () => {
      await listeners.close();
      clearInterval(vacuum);
      await stats.settle();
      await db.destroy();
      // Kysely only tears down a driver it has used; the worker must stop either way.
      await client.close();
      release();
    },
  };
}

function openPostgres(options: DatabaseOptions & { databaseUrl: string }): Database {
  const { databaseUrl: url, poolSize = 10, connectTimeoutMs = 5000, observeStatement: observe, replicaUrls = [] } = options;
  // JIT compilation pays off for long analytical queries, never for these short ones: a search whose
  // estimate crossed jit_above_cost spent 90 ms compiling (EXPLAIN at 100k products; docs/decisions.md, "JIT off").
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: connectTimeoutMs, options: '-c jit=off' });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // Nor a dropped connection that is checked out (a transaction between two statements when PostgreSQL
  // stops): pg-pool listens only while a client is idle, and an unheard 'error' event kills the process.
  // The failure reaches the request through its next statement instead, as a 503.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const stats = new StatsKeeper();
  const routed = replicaUrls.length
    ? openReplicas(pool, preparingPool(pool), { urls: replicaUrls, poolSize, maxLagMs: options.replicaMaxLagMs ?? 5000 })
    : null;
  const db = new Kysely<DB>({
    dialect: observedDialect(new PostgresDialect({ pool: routed?.pool ?? preparingPool(pool) }), observe),
    plugins: [stats],
  });
  stats.attach(db);
  if (routed) routesReadsOf(db, routed.reads);
  const listeners = openListeners();
  const listener = postgresListener(url);
  return {
    db,
    engine: 'postgres',
    replicas: routed?.replicas ?? null,
    stats,
    poolStats: () => ({ total: pool.totalCount, inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    listen: (channel, handlers) => listeners.add(listener.listen(channel, handlers)),
    close: async () => {
      routed?.replicas.close();
      await listeners.close();
      await stats.settle();
      await db.destroy();
      // Kysely only ends a pool it has used.
      if (routed) await routed.pool.end().catch(() => undefined);
      else if (!pool.ended) await pool.end();
    },
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres({ ...options, databaseUrl: options.databaseUrl });
  return openPglite(options.dataDir, options.observeStatement);
}
