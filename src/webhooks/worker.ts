import { setMaxListeners } from 'node:events';
import type { Config } from '../config.js';
import type { Database, Db } from '../db/index.js';
import { type AttemptOutcome, attempt } from './send.js';
import { WAKE_CHANNEL } from './webhooks.sql.js';
import { type Claimed, claimDue, nextDueAt, type Recorded, recordAttempts } from './worker.sql.js';

/**
 * The delivery worker: every server process runs one. It claims due deliveries (a short statement that
 * leases them), keeps up to MAX_IN_FLIGHT attempts running, records their outcomes in batches, and sleeps
 * until the next one is due, a wake-up arrives (a new delivery) or the poll comes round. See
 * src/webhooks/README.md.
 */

interface WorkerLog {
  warn(object: object, message: string): void;
  debug(object: object, message: string): void;
}

export interface WorkerSettings {
  db: Db;
  /** the database's LISTEN (src/db/notifications.ts): new deliveries wake the worker before its next poll */
  listen: Database['listen'];
  config: Pick<Config, 'databaseUrl' | 'webhookRetrySchedule' | 'webhookAllowPrivate' | 'webhookTimeoutMs'>;
  log: WorkerLog;
}

// Attempts in flight per process: slow receivers take slots, not the whole worker. A claim is made when
// at least REFILL slots are free (or none is in flight), so claims stay batched under a steady backlog.
const MAX_IN_FLIGHT = 32;
const REFILL = 8;
const POLL_MS = 5_000;
const DISABLE_AFTER_DAYS = 3;
// Retries spread over ±10% of their delay, so a receiver back from an outage is not hit by all at once.
const JITTER = 0.1;
// A write of outcomes that fails (the database was away, a deadlock) is tried again this often, then given
// up: those attempts are retried when their lease ends.
const RECORD_TRIES = 3;

/** Starts the worker; the returned function stops it (in-flight attempts are cut and retried later). */
export function startDeliveryWorker({ db, listen, config, log }: WorkerSettings): () => Promise<void> {
  const leaseSeconds = Math.ceil(config.webhookTimeoutMs / 1000) + 30;
  const inFlight = new AbortController();
  // Every attempt in flight listens on it: more than Node's default 10 is expected, not a leak.
  setMaxListeners(MAX_IN_FLIGHT + 8, inFlight.signal);
  const running = new Set<Promise<void>>();
  let stopped = false;
  let woken = false;
  let nudge: (() => void) | null = null;
  const wake = () => {
    woken = true;
    nudge?.();
  };
  // A reset (the listener was down, so a wake-up may be lost) wakes it too: the claim finds what is due.
  const listener = listen(WAKE_CHANNEL, { message: wake, reset: wake });
  const recorder = outcomeRecorder(db, log);

  // Until `ms` pass, a wake-up arrives or an attempt in flight ends.
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || stopped) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        nudge = null;
        resolve();
      }
      nudge = done;
    });

  const deliver = async (claimed: Claimed) => {
    const outcome = await attempt({
      url: claimed.url,
      secret: claimed.secret,
      eventId: claimed.event_id,
      payload: claimed.payload,
      timeoutMs: config.webhookTimeoutMs,
      allowPrivate: config.webhookAllowPrivate,
      signal: inFlight.signal,
    });
    await recorder.record(claimed, outcomeToRecord(outcome, claimed.attempts, config.webhookRetrySchedule));
  };

  const start = (claimed: Claimed) => {
    const task = deliver(claimed)
      .catch((error) => log.warn({ err: error }, 'a webhook attempt failed to run'))
      .finally(() => {
        running.delete(task);
        nudge?.();
      });
    running.add(task);
  };

  const cycle = async () => {
    // A wake-up that arrives from here on ends the pause below; one that came before is served by this claim
    // (or, with too few free slots, by the claim made as the attempts in flight end).
    woken = false;
    const free = MAX_IN_FLIGHT - running.size;
    if (running.size === 0 || free >= REFILL) {
      const claimed = await claimDue(db, free, leaseSeconds);
      for (const row of claimed) start(row);
      // Every slot taken and more may be due: claim again as soon as slots free up.
      if (claimed.length === free) return pause(POLL_MS);
    }
    if (running.size > 0) return pause(POLL_MS);
    const due = await nextDueAt(db);
    await pause(due ? Math.min(Math.max(due.getTime() - Date.now(), 10), POLL_MS) : POLL_MS);
  };

  const loop = (async () => {
    while (!stopped) {
      try {
        await cycle();
      } catch (error) {
        if (!stopped) log.warn({ err: error }, 'webhook delivery worker: retrying after an error');
        await pause(POLL_MS);
      }
    }
    await Promise.allSettled(running);
  })();

  return async () => {
    stopped = true;
    inFlight.abort();
    wake();
    await loop;
    await listener.close();
  };
}

/**
 * Writes attempts' outcomes as they finish: one statement for all that finished while the previous one ran
 * (under a backlog, a handful per write instead of a transaction each). `record` resolves once its outcome
 * is written (or given up), so an attempt holds its slot until then.
 */
function outcomeRecorder(db: Db, log: WorkerLog) {
  let queue: { claimed: Claimed; recorded: Recorded; done: () => void }[] = [];
  let writing = false;
  const drain = async () => {
    writing = true;
    while (queue.length) {
      const batch = queue;
      queue = [];
      for (let tries = 1; ; tries++) {
        try {
          await recordAttempts(db, batch, DISABLE_AFTER_DAYS);
          break;
        } catch (error) {
          if (tries >= RECORD_TRIES) {
            log.warn({ err: error, attempts: batch.length }, 'recording webhook attempts failed; they are retried when their lease ends');
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 200 * tries));
        }
      }
      for (const entry of batch) entry.done();
    }
    writing = false;
  };
  return {
    record: (claimed: Claimed, recorded: Recorded) =>
      new Promise<void>((done) => {
        queue.push({ claimed, recorded, done });
        if (!writing) void drain();
      }),
  };
}

/** A success ends the delivery; a failure is retried after the schedule's next delay, or ends it as failed. */
export function outcomeToRecord(outcome: AttemptOutcome, attemptNumber: number, schedule: readonly number[]): Recorded {
  const common = { responseStatus: outcome.status, responseBody: outcome.body, error: outcome.error };
  if (outcome.ok) return { ...common, status: 'succeeded', retryInSeconds: null };
  const delay = schedule[attemptNumber - 1];
  if (delay === undefined) return { ...common, status: 'failed', retryInSeconds: null };
  return { ...common, status: 'pending', retryInSeconds: delay * (1 - JITTER + 2 * JITTER * Math.random()) };
}
