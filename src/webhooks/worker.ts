import { setMaxListeners } from 'node:events';
import type { Config } from '../config.js';
import type { Database, Db } from '../db/index.js';
import { FEED_CHANNEL } from '../events/index.js';
import { inSpan } from '../tracing/index.js';
import { makeDeliveries } from './feed.sql.js';
import { type ReplaySending, sendReplayBatch } from './replay-batch.js';
import { claimReplays, finishReplay } from './replays.sql.js';
import { type AttemptOutcome, attempt } from './send.js';
import { WAKE_CHANNEL } from './webhooks.sql.js';
import { type Claimed, claimDue, nextDueAt, type Recorded, recordAttempts } from './worker.sql.js';

/**
 * The delivery worker: every server process runs one. It makes the deliveries of newly committed events
 * (each webhook's cursor in the feed, feed.sql.ts) and of replays, claims due deliveries in turns across
 * stores (one statement that leases them), keeps up to MAX_IN_FLIGHT attempts running, records their
 * outcomes in batches, and sleeps until the next one is due, a wake-up arrives (an event committed, a
 * delivery to send now) or the poll comes round. See src/webhooks/README.md and docs/webhooks.md.
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
  /** each attempt's outcome and duration (metrics) */
  onAttempt?: (outcome: AttemptResult, seconds: number) => void;
}

/** How an attempt ended, for metrics and traces: a 2xx, another status, no answer in time, no answer at all. */
export type AttemptResult = 'succeeded' | 'failed' | 'timeout' | 'error';

export function attemptResult(outcome: AttemptOutcome): AttemptResult {
  if (outcome.ok) return 'succeeded';
  if (outcome.timedOut) return 'timeout';
  return outcome.status === null ? 'error' : 'failed';
}

// Attempts in flight per process: slow receivers take slots, not the whole worker. A claim is made when
// at least REFILL slots are free (or none is in flight), so claims stay batched under a steady backlog.
const MAX_IN_FLIGHT = 32;
const REFILL = 8;
// A quarter of the slots is kept for stores with nothing in flight: stores that have attempts in flight hold
// at most the rest together (and each at most its share: MAX_IN_FLIGHT / stores with work, never more than
// MAX_SHARE even alone), so however many stores' receivers hang, the next store whose delivery comes due gets
// a slot. While only reserved slots are free, a claim (which can then serve only such stores) is made at most
// every RESERVE_CLAIM_MS.
const RESERVED = MAX_IN_FLIGHT / 4;
const MAX_SHARE = MAX_IN_FLIGHT - RESERVED;
const RESERVE_CLAIM_MS = 250;
const POLL_MS = 5_000;
// The feed is read this often without a wake-up too: an event whose transaction committed while an older
// one was still running becomes readable only when that one ends, and no NOTIFY announces that moment.
const FEED_POLL_MS = 1_000;
// Per round of making deliveries: webhooks (or replays) served, and events read for each.
const HOOKS_PER_ROUND = 100;
const EVENTS_PER_HOOK = 200;
// Replays (replays.sql.ts): at most this many run at once per process, each sending up to EVENTS_PER_CLAIM
// events one after the other per claim; they take slots like deliveries, within the stores' shared room.
const REPLAY_SLOTS = 4;
const EVENTS_PER_CLAIM = 25;
// Rounds per cycle at most: a big backlog of events is made in steps, with claims in between.
const ROUNDS_PER_CYCLE = 5;
const DISABLE_AFTER_DAYS = 3;
// Retries spread over ±10% of their delay, so a receiver back from an outage is not hit by all at once.
const JITTER = 0.1;
// A write of outcomes that fails (the database was away, a deadlock) is tried again this often, then given
// up: those attempts are retried when their lease ends.
const RECORD_TRIES = 3;

/** Starts the worker; the returned function stops it (in-flight attempts are cut and retried later). */
export function startDeliveryWorker({ db, listen, config, log, onAttempt }: WorkerSettings): () => Promise<void> {
  const leaseSeconds = Math.ceil(config.webhookTimeoutMs / 1000) + 30;
  const inFlight = new AbortController();
  // Every attempt in flight listens on it: more than Node's default 10 is expected, not a leak.
  setMaxListeners(MAX_IN_FLIGHT + 8, inFlight.signal);
  const running = new Set<Promise<void>>();
  let stopped = false;
  let woken = false;
  // events may have committed since the deliveries were last made
  let feedMoved = true;
  let feedReadAt = 0;
  let nudge: (() => void) | null = null;
  const wake = () => {
    woken = true;
    nudge?.();
  };
  const feedWake = () => {
    feedMoved = true;
    wake();
  };
  const inFlightPerStore = new Map<string, number>();
  // The walk of stores for the next claim starts after this one: turns go round.
  let turnAfter = '';
  let claimedAt = 0;
  let replaysRunning = 0;
  // A reset (the listener was down, so a wake-up may be lost) wakes it too: the claim finds what is due.
  const listener = listen(WAKE_CHANNEL, { message: wake, reset: feedWake });
  const feedListener = listen(FEED_CHANNEL, { message: feedWake, reset: feedWake });
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

  const send = (claimed: Claimed) =>
    attempt({
      url: claimed.url,
      secret: claimed.secret,
      eventId: claimed.event_id,
      payload: claimed.payload,
      timeoutMs: config.webhookTimeoutMs,
      allowPrivate: config.webhookAllowPrivate,
      signal: inFlight.signal,
    });

  const deliver = async (claimed: Claimed) => {
    const startedAt = new Date();
    const started = performance.now();
    const outcome = await inSpan('webhook attempt', attemptAttributes(claimed), () => send(claimed), outcomeAttributes);
    const durationMs = performance.now() - started;
    onAttempt?.(attemptResult(outcome), durationMs / 1000);
    const recorded = outcomeToRecord(outcome, claimed.attempts, config.webhookRetrySchedule);
    await recorder.record(claimed, { ...recorded, startedAt, durationMs });
  };

  const start = (storeId: string, work: () => Promise<void>) => {
    inFlightPerStore.set(storeId, (inFlightPerStore.get(storeId) ?? 0) + 1);
    const task = work()
      .catch((error) => log.warn({ err: error }, 'a webhook attempt failed to run'))
      .finally(() => {
        const left = (inFlightPerStore.get(storeId) ?? 1) - 1;
        if (left > 0) inFlightPerStore.set(storeId, left);
        else inFlightPerStore.delete(storeId);
        running.delete(task);
        nudge?.();
      });
    running.add(task);
  };

  const replaying: ReplaySending = {
    db,
    send: (claimed, eventId, payload) => send({ ...claimed, event_id: eventId, payload }),
    retryIn: (outcome, attemptNumber) => outcomeToRecord(outcome, attemptNumber, config.webhookRetrySchedule).retryInSeconds,
    onAttempt: (outcome, seconds) => onAttempt?.(attemptResult(outcome), seconds),
  };

  const claimReplayBatches = async () => {
    const room = Math.min(REPLAY_SLOTS - replaysRunning, MAX_IN_FLIGHT - running.size, MAX_SHARE - running.size);
    if (room <= 0) return;
    const claimed = await claimReplays(db, room, EVENTS_PER_CLAIM, leaseSeconds * EVENTS_PER_CLAIM);
    for (const one of claimed) {
      if (!one.events.length) {
        await finishReplay(db, one);
        continue;
      }
      replaysRunning++;
      start(one.store_id, () => sendReplayBatch(replaying, one).finally(() => replaysRunning--));
    }
  };

  // Deliveries of the events committed since the last round, and of replays, a bounded number of rounds.
  const makeFromFeed = async () => {
    if (!feedMoved && Date.now() - feedReadAt < FEED_POLL_MS) return;
    feedMoved = false;
    feedReadAt = Date.now();
    for (let round = 0; round < ROUNDS_PER_CYCLE; round++) {
      const live = await makeDeliveries(db, null, HOOKS_PER_ROUND, EVENTS_PER_HOOK);
      if (!live.more) return;
    }
    feedMoved = true;
  };

  const claim = async (free: number) => {
    const stores = [...inFlightPerStore.keys()];
    claimedAt = Date.now();
    const claimed = await claimDue(db, {
      limit: free,
      slots: MAX_IN_FLIGHT,
      maxShare: MAX_SHARE,
      room: Math.max(0, MAX_SHARE - running.size),
      leaseSeconds,
      busy: { stores, counts: stores.map((store) => inFlightPerStore.get(store) ?? 0) },
      after: turnAfter,
    });
    for (const row of claimed) start(row.store_id, () => deliver(row));
    // Next turn after the last store served; from the first again once the walk found too little.
    turnAfter = claimed.length < free ? '' : claimed.reduce((last, row) => (row.store_id > last ? row.store_id : last), '');
    return claimed.length;
  };

  const cycle = async () => {
    // A wake-up that arrives from here on ends the pause below; one that came before is served by this claim
    // (or, with too few free slots, by the claim made as the attempts in flight end).
    woken = false;
    await makeFromFeed();
    const free = MAX_IN_FLIGHT - running.size;
    const reserveOnly = free > 0 && free < REFILL && Date.now() - claimedAt >= RESERVE_CLAIM_MS;
    if (running.size === 0 || free >= REFILL || reserveOnly) {
      const after = turnAfter;
      let claimed = await claim(free);
      // The walk started mid-way and left slots free: the stores before it get their turn now.
      if (after !== '' && claimed < free) claimed += await claim(MAX_IN_FLIGHT - running.size);
      await claimReplayBatches();
      // Every slot taken and more may be due: claim again as soon as slots free up.
      if (claimed === free) return pause(FEED_POLL_MS);
    }
    if (running.size > 0 || feedMoved) return pause(FEED_POLL_MS);
    const due = await nextDueAt(db);
    await pause(due ? Math.min(Math.max(due.getTime() - Date.now(), 10), FEED_POLL_MS) : FEED_POLL_MS);
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
    await feedListener.close();
  };
}

const attemptAttributes = (claimed: Claimed) => ({
  'storefront.store_id': claimed.store_id,
  'storefront.webhook_id': claimed.webhook_id,
  'storefront.delivery_id': claimed.id,
  'storefront.event_id': claimed.event_id,
  'storefront.attempt': claimed.attempts,
});

const outcomeAttributes = (outcome: AttemptOutcome) => ({
  'storefront.attempt.result': attemptResult(outcome),
  ...(outcome.status === null ? {} : { 'http.response.status_code': outcome.status }),
});

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
export function outcomeToRecord(
  outcome: AttemptOutcome,
  attemptNumber: number,
  schedule: readonly number[],
): Omit<Recorded, 'startedAt' | 'durationMs'> {
  const common = { responseStatus: outcome.status, responseBody: outcome.body, error: outcome.error, timedOut: outcome.timedOut };
  if (outcome.ok) return { ...common, status: 'succeeded', retryInSeconds: null };
  const delay = schedule[attemptNumber - 1];
  if (delay === undefined) return { ...common, status: 'failed', retryInSeconds: null };
  return { ...common, status: 'pending', retryInSeconds: delay * (1 - JITTER + 2 * JITTER * Math.random()) };
}
