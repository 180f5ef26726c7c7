import type { Config } from '../config.js';
import { type Database, type Db, withTx } from '../db/index.js';
import { type AttemptOutcome, attempt } from './send.js';
import { WAKE_CHANNEL } from './webhooks.sql.js';
import { type Claimed, claimDue, nextDueAt, type Recorded, recordAttempt, recordHealth } from './worker.sql.js';

/**
 * The delivery worker: every server process runs one. It claims due deliveries (a short statement that
 * leases them), sends each once, records the outcome, and sleeps until the next one is due, a wake-up
 * arrives (a new delivery) or the poll comes round. See src/webhooks/README.md.
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

const BATCH = 10;
const POLL_MS = 5_000;
const DISABLE_AFTER_DAYS = 3;
// Retries spread over ±10% of their delay, so a receiver back from an outage is not hit by all at once.
const JITTER = 0.1;

/** Starts the worker; the returned function stops it (in-flight attempts are cut and retried later). */
export function startDeliveryWorker({ db, listen, config, log }: WorkerSettings): () => Promise<void> {
  const leaseSeconds = Math.ceil(config.webhookTimeoutMs / 1000) + 30;
  const inFlight = new AbortController();
  let stopped = false;
  let woken = false;
  let wakeSleeper: (() => void) | null = null;
  const wake = () => {
    woken = true;
    wakeSleeper?.();
  };
  // A reset (the listener was down, so a wake-up may be lost) wakes it too: the claim finds what is due.
  const listener = listen(WAKE_CHANNEL, { message: wake, reset: wake });

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || stopped) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeSleeper = null;
        resolve();
      }
      wakeSleeper = done;
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
    const recorded = outcomeToRecord(outcome, claimed.attempts, config.webhookRetrySchedule);
    await withTx(db, async (trx) => {
      if (await recordAttempt(trx, claimed, recorded)) await recordHealth(trx, claimed, outcome.ok, DISABLE_AFTER_DAYS);
    });
  };

  const cycle = async () => {
    woken = false;
    const claimed = await claimDue(db, BATCH, leaseSeconds);
    if (claimed.length) {
      const results = await Promise.allSettled(claimed.map(deliver));
      for (const result of results)
        if (result.status === 'rejected') log.warn({ err: result.reason }, 'recording a webhook attempt failed');
      return;
    }
    const due = await nextDueAt(db);
    await sleep(due ? Math.min(Math.max(due.getTime() - Date.now(), 10), POLL_MS) : POLL_MS);
  };

  const loop = (async () => {
    while (!stopped) {
      try {
        await cycle();
      } catch (error) {
        if (!stopped) log.warn({ err: error }, 'webhook delivery worker: retrying after an error');
        await sleep(POLL_MS);
      }
    }
  })();

  return async () => {
    stopped = true;
    inFlight.abort();
    wake();
    await loop;
    await listener.close();
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
