import { setMaxListeners } from 'node:events';
import { type Config, webhookLeaseSeconds } from '../config.js';
import type { Database, Db } from '../db/index.js';
import { FEED_CHANNEL } from '../events/index.js';
import { startWakeLoop } from '../shared/index.js';
import { inSpan } from '../tracing/index.js';
import { makeDeliveries, storesBehind } from './feed.sql.js';
import { outcomeRecorder } from './outcome-recorder.js';
import { type ReplaySending, sendReplayBatch } from './replay-batch.js';
import { claimReplays, finishReplay } from './replays.sql.js';
import { type AttemptOutcome, attempt } from './send.js';
import { WAKE_CHANNEL } from './webhooks.sql.js';
import { type Claimed, claimDue, nextDueAt, type Recorded } from './worker.sql.js';

/**
 * The delivery worker: every server process runs one. It makes the deliveries of newly committed events
 * (each webhook's cursor in the feed, feed.sql.ts) and of replays, claims due deliveries in turns across
 * stores (one statement that leases them), keeps up to MAX_IN_FLIGHT attempts running, records their
 * outcomes in batches (outcome-recorder.ts), and sleeps on the shared wake loop (src/shared/wake-loop.ts)
 * until the next one is due, a wake-up arrives (an event committed, a delivery to send now), an attempt
 * frees its slot or the poll comes round. See src/webhooks/README.md and docs/webhooks.md.
 */

interface WorkerLog {
  warn(object: object, message: string): void;
  debug(object: object, message: string): void;
}

export interface WorkerSettings {
  db: Db;
  /** the database's LISTEN (src/db/notifications.ts): new deliveries wake the worker before its next poll */
  listen: Database['listen'];
  /** without webhookLeaseSeconds, the default lease for webhookTimeoutMs */
  config: Pick<Config, 'databaseUrl' | 'webhookRetrySchedule' | 'webhookAllowPrivate' | 'webhookTimeoutMs'> &
    Partial<Pick<Config, 'webhookLeaseSeconds'>>;
  log: WorkerLog;
  /** each attempt's outcome and duration (metrics) */
  onAttempt?: (outcome: AttemptResult, seconds: number) => void;
  /**
   * With read replicas: the primary's WAL position, read as an attempt starts (its event was claimed before,
   * committed: the position is at or past the event's), sent as `storefront-consistency`
   */
  position?: () => Promise<string>;
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
// Per round of making deliveries: stores, and webhooks of each (or replays), served, and events read for each.
const HOOKS_PER_ROUND = 100;
const EVENTS_PER_HOOK = 200;
// Replays (replays.sql.ts): at most this many run at once per process, each sending up to EVENTS_PER_CLAIM
// events one after the other per claim; they take slots like deliveries, within the stores' shared room.
const REPLAY_SLOTS = 4;
const EVENTS_PER_CLAIM = 25;
// Rounds per cycle at most: a big backlog of events is made in steps, with claims in between.
const ROUNDS_PER_CYCLE = 5;
// Retries spread over ±10% of their delay, so a receiver back from an outage is not hit by all at once.
const JITTER = 0.1;

/** Starts the worker; the returned function stops it (in-flight attempts are cut and retried later). */
export function startDeliveryWorker(settings: WorkerSettings): () => Promise<void> {
  const worker = new DeliveryWorker(settings);
  const loop = startWakeLoop({
    name: 'webhook delivery worker',
    listen: settings.listen,
    channels: [WAKE_CHANNEL, FEED_CHANNEL],
    heard: (channel) => {
      if (channel === FEED_CHANNEL) worker.feedMoved = true;
    },
    // the listener was down: events may have committed unannounced, and the claim finds what is due
    lost: () => {
      worker.feedMoved = true;
    },
    pollMs: POLL_MS,
    cycle: () => worker.cycle(),
    log: settings.log,
  });
  // An attempt that ends frees its slot: the pause ends, so the next claim fills it.
  worker.slotFreed = loop.nudge;
  return async () => {
    const stopping = loop.stop();
    worker.cutAttempts();
    await stopping;
    await worker.settled();
  };
}

/**
 * What one process's worker keeps between cycles: the attempts in flight (per store, for the fair share of
 * slots), where the walk of stores resumes, when the feed was last read, the replays running.
 */
class DeliveryWorker {
  /** events may have committed since the deliveries were last made */
  feedMoved = true;
  /** called when an attempt ends (set by the loop that runs the worker) */
  slotFreed: () => void = () => {};
  private readonly db: Db;
  private readonly settings: WorkerSettings;
  private readonly leaseSeconds: number;
  private readonly inFlight = new AbortController();
  private readonly running = new Set<Promise<void>>();
  private readonly inFlightPerStore = new Map<string, number>();
  private readonly recorder: ReturnType<typeof outcomeRecorder>;
  private readonly replaying: ReplaySending;
  private feedReadAt = 0;
  /** the walk of stores for the next claim starts after this one: turns go round */
  private turnAfter = '';
  private claimedAt = 0;
  private replaysRunning = 0;

  constructor(settings: WorkerSettings) {
    const { db, config, onAttempt } = settings;
    this.db = db;
    this.settings = settings;
    this.leaseSeconds = config.webhookLeaseSeconds ?? webhookLeaseSeconds(config.webhookTimeoutMs);
    // Every attempt in flight listens on it: more than Node's default 10 is expected, not a leak.
    setMaxListeners(MAX_IN_FLIGHT + 8, this.inFlight.signal);
    this.recorder = outcomeRecorder(db, settings.log);
    this.replaying = {
      db,
      send: (claimed, eventId, payload) => this.send({ ...claimed, event_id: eventId, payload }),
      retryIn: (outcome, attemptNumber) => outcomeToRecord(outcome, attemptNumber, config.webhookRetrySchedule).retryInSeconds,
      onAttempt: (outcome, seconds) => onAttempt?.(attemptResult(outcome), seconds),
    };
  }

  /** One turn: make deliveries from the feed, claim what is due; answers how long to pause after it. */
  async cycle(): Promise<number> {
    await this.makeFromFeed();
    const free = MAX_IN_FLIGHT - this.running.size;
    const reserveOnly = free > 0 && free < REFILL && Date.now() - this.claimedAt >= RESERVE_CLAIM_MS;
    if (this.running.size === 0 || free >= REFILL || reserveOnly) {
      const after = this.turnAfter;
      let claimed = await this.claim(free);
      // The walk started mid-way and left slots free: the stores before it get their turn now.
      if (after !== '' && claimed < free) claimed += await this.claim(MAX_IN_FLIGHT - this.running.size);
      await this.claimReplayBatches();
      // Every slot taken and more may be due: claim again as soon as slots free up.
      if (claimed === free) return FEED_POLL_MS;
    }
    if (this.running.size > 0 || this.feedMoved) return FEED_POLL_MS;
    const due = await nextDueAt(this.db);
    return due ? Math.min(Math.max(due.getTime() - Date.now(), 10), FEED_POLL_MS) : FEED_POLL_MS;
  }

  /** Cuts the attempts in flight (they are retried when their lease ends). */
  cutAttempts(): void {
    this.inFlight.abort();
  }

  /** Resolves once every attempt that was running has ended and been recorded (or given up). */
  async settled(): Promise<void> {
    await Promise.allSettled(this.running);
  }

  // Deliveries of the events committed since the last round, and of replays, a bounded number of rounds.
  private async makeFromFeed(): Promise<void> {
    if (!this.feedMoved && Date.now() - this.feedReadAt < FEED_POLL_MS) return;
    this.feedMoved = false;
    this.feedReadAt = Date.now();
    for (let round = 0; round < ROUNDS_PER_CYCLE; round++) {
      const stores = await storesBehind(this.db, HOOKS_PER_ROUND);
      let more = stores.length >= HOOKS_PER_ROUND;
      for (const storeId of stores) more = (await makeDeliveries(this.db, storeId, HOOKS_PER_ROUND, EVENTS_PER_HOOK)).more || more;
      if (!more) return;
    }
    this.feedMoved = true;
  }

  private async claim(free: number): Promise<number> {
    const stores = [...this.inFlightPerStore.keys()];
    this.claimedAt = Date.now();
    const claimed = await claimDue(this.db, {
      limit: free,
      slots: MAX_IN_FLIGHT,
      maxShare: MAX_SHARE,
      room: Math.max(0, MAX_SHARE - this.running.size),
      leaseSeconds: this.leaseSeconds,
      busy: { stores, counts: stores.map((store) => this.inFlightPerStore.get(store) ?? 0) },
      after: this.turnAfter,
    });
    for (const row of claimed) this.start(row.store_id, () => this.deliver(row));
    // Next turn after the last store served; from the first again once the walk found too little.
    this.turnAfter = claimed.length < free ? '' : claimed.reduce((last, row) => (row.store_id > last ? row.store_id : last), '');
    return claimed.length;
  }

  private async claimReplayBatches(): Promise<void> {
    const room = Math.min(REPLAY_SLOTS - this.replaysRunning, MAX_IN_FLIGHT - this.running.size, MAX_SHARE - this.running.size);
    if (room <= 0) return;
    const claimed = await claimReplays(this.db, room, EVENTS_PER_CLAIM, this.leaseSeconds * EVENTS_PER_CLAIM);
    for (const one of claimed) {
      if (!one.events.length) {
        await finishReplay(this.db, one);
        continue;
      }
      this.replaysRunning++;
      this.start(one.store_id, () => sendReplayBatch(this.replaying, one).finally(() => this.replaysRunning--));
    }
  }

  /** Runs `work` in a slot of `storeId`'s; the slot is freed (and the pause ended) when it ends. */
  private start(storeId: string, work: () => Promise<void>): void {
    const perStore = this.inFlightPerStore;
    perStore.set(storeId, (perStore.get(storeId) ?? 0) + 1);
    const task = work()
      .catch((error) => this.settings.log.warn({ err: error }, 'a webhook attempt failed to run'))
      .finally(() => {
        const left = (perStore.get(storeId) ?? 1) - 1;
        if (left > 0) perStore.set(storeId, left);
        else perStore.delete(storeId);
        this.running.delete(task);
        this.slotFreed();
      });
    this.running.add(task);
  }

  private async deliver(claimed: Claimed): Promise<void> {
    const startedAt = new Date();
    const started = performance.now();
    const outcome = await inSpan('webhook attempt', attemptAttributes(claimed), () => this.send(claimed), outcomeAttributes);
    const durationMs = performance.now() - started;
    this.settings.onAttempt?.(attemptResult(outcome), durationMs / 1000);
    const recorded = outcomeToRecord(outcome, claimed.attempts, this.settings.config.webhookRetrySchedule);
    await this.recorder.record(claimed, { ...recorded, startedAt, durationMs });
  }

  private async send(claimed: Claimed): Promise<AttemptOutcome> {
    const { config, position } = this.settings;
    // without a position the receiver reads the primary's state or waits: the attempt goes out either way
    const consistency = position ? await position().catch(() => undefined) : undefined;
    return attempt({
      consistency,
      url: claimed.url,
      secret: claimed.secret,
      eventId: claimed.event_id,
      payload: claimed.payload,
      timeoutMs: config.webhookTimeoutMs,
      allowPrivate: config.webhookAllowPrivate,
      signal: this.inFlight.signal,
    });
  }
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
