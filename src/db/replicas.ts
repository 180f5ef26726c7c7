import { AsyncLocalStorage } from 'node:async_hooks';
import type { PostgresPool } from 'kysely';
import pg from 'pg';
import { preparingPool } from './statements/prepared.js';
import { lagBehind, type PrimarySample, parseLsn } from './wal-positions.js';

/**
 * Reads on PostgreSQL's streaming replicas (docs/scaling.md §4). The process's one Kysely handle sends its
 * statements through `routingPool`: a connection comes from the replica the current read was given
 * (`Replicas.run`, an AsyncLocalStorage of this database, never module state), else from the primary. So a
 * service or a `*.sql.ts` never knows where it reads, and everything not run as a routed read (writes,
 * credential checks, the feed, job and delivery claims, background loops) stays on the primary.
 *
 * The probe (one timer, off the request path) reads the primary's WAL position and each replica's replay
 * position every PROBE_MS; a replica's lag is how long ago the primary was at a position the replica has
 * not replayed yet (wal-positions.ts). A read that needs a position no replica has replayed waits for the
 * probe's fast turns (every WAIT_PROBE_MS while someone waits), up to the wait it was given.
 */

const PROBE_MS = 250;
const WAIT_PROBE_MS = 10;

/** Why a read went where it went (GET /metrics: reads by target and reason). */
export type ReadReason = 'caught-up' | 'waited' | 'behind' | 'no-replica' | 'replica-failed';

export interface ReplicaState {
  /** host:port of its URL (never its credentials) */
  name: string;
  up: boolean;
  /** how far behind the primary, in ms; null until probed */
  lagMs: number | null;
}

export interface ReadTarget {
  replica: Replica | null;
  reason: ReadReason;
}

export interface Replicas {
  /** the primary's WAL position now: after a write's COMMIT, at or past its commit record */
  position(): Promise<string>;
  /** a usable replica that has replayed `needed` (any usable one when null), waiting up to `waitMs`; else the primary */
  choose(needed: bigint | null, waitMs: number): Promise<ReadTarget>;
  /**
   * Runs `read` with its statements on the target. When a replica fails it (`retryable` says the error is
   * the replica's, not an answer) it runs again on the primary, if `again()` still allows (nothing sent).
   */
  run<T>(target: ReadTarget, read: () => Promise<T>, retry: RetryRule): Promise<T>;
  states(): ReplicaState[];
  close(): void;
}

export interface RetryRule {
  retryable(error: unknown): boolean;
  again(): boolean;
  /** the read was answered by the primary after the replica failed it */
  onFallback(): void;
}

export interface Replica {
  name: string;
  pool: pg.Pool;
  connections: PostgresPool;
  up: boolean;
  /** replay position last read, -1 when unknown */
  replayed: bigint;
  lagMs: number | null;
}

interface Route {
  replica: Replica | null;
  /** set once the read has ended: what it started later (a timer, a loop) goes to the primary */
  ended: boolean;
}

interface Waiter {
  needed: bigint;
  resolve(replica: Replica | null): void;
}

export interface ReplicaOptions {
  urls: string[];
  poolSize: number;
  maxLagMs: number;
}

function openReplica(url: string, poolSize: number): Replica {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 1000, options: '-c jit=off' });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const { hostname, port } = new URL(url);
  return { name: `${hostname}:${port || 5432}`, pool, connections: preparingPool(pool), up: false, replayed: -1n, lagMs: null };
}

/** Connection errors (class 08, an administrator's shutdown 57P) and errors without a SQLSTATE (a refused socket). */
function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code !== 'string' || /^(08|57P)/.test(code) || /^E[A-Z]+$/.test(code);
}

/**
 * The pool the process's Kysely handle uses: the current read's replica, else the primary. A read whose
 * replica cannot give a connection fails (and is run again on the primary by `Replicas.run`).
 */
function routingPool(primary: PostgresPool, replicas: Replica[], route: AsyncLocalStorage<Route>): PostgresPool {
  let ending: Promise<void> | undefined;
  return {
    connect: async () => {
      const current = route.getStore();
      if (!current?.replica || current.ended) return primary.connect();
      return current.replica.connections.connect();
    },
    // once, whether Kysely's destroy or the database's close asks first
    end: () => {
      ending ??= Promise.all(replicas.map((replica) => replica.pool.end())).then(() => primary.end());
      return ending;
    },
  };
}

/** What a routed database's Kysely handle is asked (readTargetOf, onPrimary). */
export interface ReadRoute {
  /** `primary`, or the name of the replica the running read was given */
  target(): string;
  /** runs `work` with its statements (and what it starts) on the primary */
  onPrimary<T>(work: () => Promise<T>): Promise<T>;
}

/** Each routed database's routes, by its Kysely handle. */
const routes = new WeakMap<object, ReadRoute>();

/**
 * Where a statement sent now through `db` goes: `primary`, or the name of the replica the running read was
 * given. Reads that gather and run once for several requests (the batched GET by id, the shared list reads,
 * src/reads) gather only with requests of the same target: a read routed to the primary because the replica
 * had not replayed its position must not be served by a replica read another request started.
 */
export function readTargetOf(db: object): string {
  return routes.get(db)?.target() ?? 'primary';
}

/**
 * Runs `work` with its statements on the primary even inside a routed read: what a read must write, or must
 * see as every process does (an export's store slot, src/shared/store-slots.ts). Without replicas: `work()`.
 */
export function onPrimary<T>(db: object, work: () => Promise<T>): Promise<T> {
  const route = routes.get(db);
  return route ? route.onPrimary(work) : work();
}

/** Registers `db` as the handle whose statements `openReplicas`'s pool routes (database.ts). */
export function routesReadsOf(db: object, route: ReadRoute): void {
  routes.set(db, route);
}

export function openReplicas(
  primaryPool: pg.Pool,
  primary: PostgresPool,
  options: ReplicaOptions,
): { pool: PostgresPool; replicas: Replicas; reads: ReadRoute } {
  const replicas = options.urls.map((url) => openReplica(url, options.poolSize));
  const route = new AsyncLocalStorage<Route>();
  const probe = startProbe(primaryPool, replicas, options.maxLagMs);
  let turn = 0;
  const usable = () => replicas.filter((replica) => replica.up && replica.lagMs !== null && replica.lagMs <= options.maxLagMs);
  const pick = (from: Replica[]) => from[turn++ % from.length];
  const target = () => {
    const current = route.getStore();
    return current?.replica && !current.ended ? current.replica.name : 'primary';
  };
  const onPrimary = <T>(work: () => Promise<T>) => route.run({ replica: null, ended: false }, work);
  return {
    pool: routingPool(primary, replicas, route),
    reads: { target, onPrimary },
    replicas: {
      position: async () => (await primaryPool.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0].lsn,
      async choose(needed, waitMs) {
        const open = usable();
        if (!open.length) return { replica: null, reason: 'no-replica' };
        const ready = needed === null ? open : open.filter((replica) => replica.replayed >= needed);
        if (ready.length) return { replica: pick(ready), reason: 'caught-up' };
        if (needed === null || waitMs <= 0) return { replica: null, reason: 'behind' };
        const replica = await probe.waitFor(needed, waitMs);
        return replica ? { replica, reason: 'waited' } : { replica: null, reason: 'behind' };
      },
      async run(target, read, retry) {
        if (!target.replica) return read();
        const current: Route = { replica: target.replica, ended: false };
        try {
          return await route.run(current, read);
        } catch (error) {
          if (!retry.retryable(error) || !retry.again()) throw error;
          if (isConnectionError(error)) target.replica.up = false;
          retry.onFallback();
          return read();
        } finally {
          current.ended = true;
        }
      },
      states: () => replicas.map(({ name, up, lagMs }) => ({ name, up, lagMs })),
      close: () => probe.stop(),
    },
  };
}

/** The probe: the primary's position and each replica's replay position, every PROBE_MS (WAIT_PROBE_MS while reads wait). */
function startProbe(primaryPool: pg.Pool, replicas: Replica[], maxLagMs: number) {
  const samples: PrimarySample[] = [];
  const waiters = new Set<Waiter>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let lastFull = 0;
  const settleWaiters = () => {
    for (const waiter of waiters) {
      const replica = replicas.find((one) => one.up && one.lagMs !== null && one.lagMs <= maxLagMs && one.replayed >= waiter.needed);
      if (replica) waiter.resolve(replica);
    }
  };
  const readReplica = async (replica: Replica) => {
    try {
      const { rows } = await replica.pool.query<{ replayed: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS replayed');
      const replayed = rows[0].replayed;
      // not a standby (promoted, or a wrong URL): never read from it as a replica
      if (replayed === null) throw new Error(`${replica.name} is not replaying WAL`);
      replica.replayed = parseLsn(replayed);
      replica.lagMs = lagBehind(samples, replica.replayed, Date.now());
      replica.up = true;
    } catch {
      replica.up = false;
      replica.lagMs = null;
    }
  };
  const readPrimary = async () => {
    try {
      const { rows } = await primaryPool.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
      samples.push({ lsn: parseLsn(rows[0].lsn), at: Date.now() });
      // enough history to tell a lag of maxLagMs from a larger one
      while (samples.length > 2 && samples[1].at < Date.now() - maxLagMs - 2 * PROBE_MS) samples.shift();
    } catch {
      // the primary unreachable: the replicas' lags stay as last measured
    }
  };
  const tick = async () => {
    running = true;
    const full = Date.now() - lastFull >= PROBE_MS;
    if (full) {
      lastFull = Date.now();
      await readPrimary();
      await Promise.all(replicas.map(readReplica));
    } else await Promise.all(replicas.filter((replica) => replica.up).map(readReplica));
    settleWaiters();
    running = false;
    if (!stopped) timer = setTimeout(tick, waiters.size ? WAIT_PROBE_MS : PROBE_MS);
    timer?.unref();
  };
  void tick();
  return {
    waitFor(needed: bigint, waitMs: number): Promise<Replica | null> {
      return new Promise((resolve) => {
        const waiter: Waiter = {
          needed,
          resolve: (replica) => {
            clearTimeout(giveUp);
            waiters.delete(waiter);
            resolve(replica);
          },
        };
        const giveUp = setTimeout(() => waiter.resolve(null), waitMs);
        waiters.add(waiter);
        // the probe sleeping its long turn is woken to its fast one (a turn under way schedules the next itself)
        if (!running && !stopped) {
          clearTimeout(timer);
          timer = setTimeout(tick, WAIT_PROBE_MS);
        }
      });
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      for (const waiter of waiters) waiter.resolve(null);
    },
  };
}
