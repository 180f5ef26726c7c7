import cluster, { type Worker } from 'node:cluster';
import { pino } from 'pino';
import { type Config, ConfigError, loadConfig } from './config.js';
import type { ServeOptions } from './server.js';

/**
 * `storefront serve --workers N`: a primary process that runs N server processes (Node's cluster
 * module: they share the listening socket, the primary hands out connections in turn) and does nothing
 * else. It restarts a worker that dies, with a growing pause, gives up with exit 1 when workers keep
 * dying before they listen (a bad DATABASE_URL would otherwise restart forever), and on SIGTERM/SIGINT
 * stops every worker gracefully (each runs the shutdown of src/server.ts) and exits 0 when all did.
 */

/** Consecutive deaths before listening, across all workers, after which the primary gives up. */
export const STARTUP_FAILURES_LIMIT = 5;
const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 30_000;
/** A worker that ran this long before dying starts its slot's pauses from the first one again. */
const HEALTHY_RUN_MS = 60_000;

/**
 * Why this configuration cannot run more than one process, or null. Every piece of state the workers
 * must share lives in PostgreSQL (data, idempotency keys) or Redis (rate limits, login throttle).
 */
export function workersRefusal(config: Config): string | null {
  if (config.workers <= 1) return null;
  if (!config.databaseUrl) {
    return `--workers ${config.workers} needs DATABASE_URL: the embedded PGlite database belongs to one process (run one process, or use PostgreSQL)`;
  }
  if (!config.redisUrl) {
    return `--workers ${config.workers} needs REDIS_URL: rate limits and the login throttle must be one budget across the workers, not one per worker`;
  }
  return null;
}

interface Slot {
  worker: Worker | null;
  /** deaths in a row of this slot's workers, each doubling the pause before the next start */
  crashes: number;
  restart: NodeJS.Timeout | null;
}

export function superviseWorkers(config: Config): void {
  const refusal = workersRefusal(config);
  if (refusal) throw new ConfigError(refusal);
  const log = pino({ level: config.logLevel }).child({ role: 'primary' });
  const slots: Slot[] = Array.from({ length: config.workers }, () => ({ worker: null, crashes: 0, restart: null }));
  let startupFailures = 0;
  let stopping = false;
  let exitCode = 0;

  const live = () => slots.filter((slot) => slot.worker !== null).length;
  const finishIfDone = () => {
    if (stopping && live() === 0) {
      log.info({ code: exitCode }, 'all workers stopped');
      process.exit(exitCode);
    }
  };

  const stop = (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    log.info({ reason }, 'stopping the workers');
    for (const slot of slots) {
      if (slot.restart) clearTimeout(slot.restart);
      slot.worker?.process.kill('SIGTERM');
    }
    // Each worker cuts its own requests after the shutdown timeout; this only catches a stuck one.
    setTimeout(() => {
      log.error('workers still running after the shutdown timeout: killing them');
      for (const slot of slots) slot.worker?.process.kill('SIGKILL');
      process.exit(1);
    }, config.shutdownTimeoutMs + 10_000).unref();
    finishIfDone();
  };

  const start = (index: number) => {
    const slot = slots[index];
    slot.restart = null;
    const startedAt = Date.now();
    let listened = false;
    const worker = cluster.fork({ STOREFRONT_WORKER: String(index + 1) });
    slot.worker = worker;
    worker.once('listening', () => {
      listened = true;
      startupFailures = 0;
    });
    worker.once('exit', (code, signal) => {
      slot.worker = null;
      if (stopping) {
        // A worker still starting has no handler yet: the signal ends it, and it was serving nothing.
        if (code !== 0 && !(signal === 'SIGTERM' && !listened)) exitCode = 1;
        return finishIfDone();
      }
      if (Date.now() - startedAt >= HEALTHY_RUN_MS) slot.crashes = 0;
      const pauseMs = Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** slot.crashes);
      slot.crashes++;
      log.error({ worker: index + 1, workerPid: worker.process.pid, code, signal, listened, restartInMs: pauseMs }, 'worker died');
      if (!listened && ++startupFailures >= STARTUP_FAILURES_LIMIT) {
        log.fatal({ failures: startupFailures }, 'workers keep dying before they listen: giving up');
        return stop('startup failures', 1);
      }
      slot.restart = setTimeout(() => start(index), pauseMs);
    });
  };

  process.on('SIGTERM', () => stop('SIGTERM', 0));
  process.on('SIGINT', () => stop('SIGINT', 0));
  log.info({ workers: config.workers }, 'starting workers');
  for (let index = 0; index < slots.length; index++) start(index);
}

/** True in the process that should supervise workers rather than serve. */
export function isPrimaryOfWorkers(config: Config): boolean {
  return config.workers > 1 && cluster.isPrimary;
}

/**
 * `storefront serve [--workers N]`: the primary of N workers only supervises (it never loads the service),
 * anything else serves. --workers is STOREFRONT_WORKERS given on the command line (validated, and named, as that).
 * `serving`: what a serving process passes to `serve` (the bench's own after-work: bench/serve.mjs), made only
 * where the service is loaded.
 */
export async function runServe(workers: string | undefined, serving?: () => Promise<ServeOptions>): Promise<void> {
  const config = loadConfig(workers === undefined ? process.env : { ...process.env, STOREFRONT_WORKERS: workers });
  if (isPrimaryOfWorkers(config)) superviseWorkers(config);
  else await (await import('./server.js')).serve(config, await serving?.());
}
