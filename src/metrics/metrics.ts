import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ReadReason, ReplicaState } from '../db/index.js';
import type { Answer } from '../http/index.js';
import { registerReplicaMetrics } from './replica-metrics.js';

/**
 * What this process measures, in a registry of its own (so two apps in one process, as in tests, never
 * share series). Labels are route templates, methods, status codes and fixed states: never an id, a
 * store or anything a caller chose.
 */

/** The state read from the database at scrape time, wired in app.ts (metrics imports no resource). */
export interface MetricSources {
  pool(): { total: number; inUse: number; waiting: number } | null;
  jobs(): Promise<{ queued: number; running: number }>;
  deliveries(): Promise<{ pending: number; failed: number; oldestPendingSeconds: number }>;
  /** null when the feed is empty */
  newestEventAgeSeconds(): Promise<number | null>;
  /** this process's Requests log rows so far (src/request-log's writer, in memory); null when the log is off */
  requestLogRows(): { written: number; dropped: number } | null;
  /** the read replicas as last probed; empty without STOREFRONT_REPLICA_URLS */
  replicas(): ReplicaState[];
}

export interface Metrics {
  registry: Registry;
  /** one answered request (an observer of src/http's answered.ts): by its route's template, never the URL */
  observeRequest(answer: Answer): void;
  /** lines an import job committed (one call per batch) */
  importLinesProcessed(lines: number): void;
  /** one webhook attempt of this process: how it ended (a fixed set of outcomes) and how long it took */
  observeWebhookAttempt(outcome: WebhookAttemptOutcome, seconds: number): void;
  /** one routed read: where it was answered and why (src/http/consistency.ts) */
  observeRead(target: 'primary' | 'replica', reason: ReadReason): void;
}

/** A 2xx, another status, no answer within the timeout, no answer at all (refused, unreachable). */
export type WebhookAttemptOutcome = 'succeeded' | 'failed' | 'timeout' | 'error';

// Request latencies: from a cached read (~1 ms) to a large import upload.
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
// Webhook attempts: a receiver on the same network (~5 ms) to the 10 s default timeout.
const ATTEMPT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const LINT_FAILING_DEFAULTS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];
// A scrape reads the database once for all gauges, however many of them ask.
const SNAPSHOT_MS = 1000;

type Snapshot = Awaited<ReturnType<typeof readSnapshot>>;

async function readSnapshot(sources: MetricSources) {
  const [jobs, deliveries, newestEvent] = await Promise.all([sources.jobs(), sources.deliveries(), sources.newestEventAgeSeconds()]);
  return { jobs, deliveries, newestEvent };
}

/** The database's state once per scrape; a failed read leaves the gauges at their last values. */
function snapshots(sources: MetricSources, onError: (error: unknown) => void) {
  let cached: { at: number; value: Promise<Snapshot | null> } | null = null;
  return () => {
    if (!cached || Date.now() - cached.at > SNAPSHOT_MS) {
      cached = {
        at: Date.now(),
        value: readSnapshot(sources).catch((error) => {
          onError(error);
          return null;
        }),
      };
    }
    return cached.value;
  };
}

function registerDatabaseGauges(registry: Registry, sources: MetricSources, snapshot: () => Promise<Snapshot | null>): void {
  new Gauge({
    name: 'storefront_db_pool_connections',
    help: 'PostgreSQL connections of this process by state (in_use: checked out; total: open)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = sources.pool();
      if (!pool) return;
      this.set({ state: 'in_use' }, pool.inUse);
      this.set({ state: 'total' }, pool.total);
    },
  });
  new Gauge({
    name: 'storefront_db_pool_waiting',
    help: 'Callers of this process waiting for a PostgreSQL connection',
    registers: [registry],
    collect() {
      this.set(sources.pool()?.waiting ?? 0);
    },
  });
  new Gauge({
    name: 'storefront_jobs',
    help: 'Background jobs (imports) of every store by state',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const value = await snapshot();
      if (!value) return;
      this.set({ state: 'queued' }, value.jobs.queued);
      this.set({ state: 'running' }, value.jobs.running);
    },
  });
  new Gauge({
    name: 'storefront_webhook_deliveries',
    help: 'Webhook deliveries of every store by state (pending: not yet delivered; failed: gave up, kept until purged)',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const value = await snapshot();
      if (!value) return;
      this.set({ state: 'pending' }, value.deliveries.pending);
      this.set({ state: 'failed' }, value.deliveries.failed);
    },
  });
  new Gauge({
    name: 'storefront_webhook_oldest_pending_age_seconds',
    help: 'Age of the oldest pending webhook delivery (0 when none is pending)',
    registers: [registry],
    async collect() {
      const value = await snapshot();
      if (value) this.set(value.deliveries.oldestPendingSeconds);
    },
  });
  new Gauge({
    name: 'storefront_events_newest_age_seconds',
    help: "Age of the event feed's newest event (absent while the feed is empty)",
    registers: [registry],
    async collect() {
      const value = await snapshot();
      if (value && value.newestEvent !== null) this.set(value.newestEvent);
    },
  });
}

/**
 * The Requests log's rows written and dropped (a full buffer, a failed batch) by this process: counters read
 * from the writer's own counts at scrape time, so recording a request costs nothing more.
 */
function registerRequestLogCounters(registry: Registry, sources: MetricSources): void {
  for (const [name, help, field] of [
    ['storefront_request_log_rows_written_total', 'Requests log rows this process wrote to the database', 'written'],
    [
      'storefront_request_log_rows_dropped_total',
      'Requests log rows this process dropped: its buffer was full, or writing their batch failed',
      'dropped',
    ],
  ] as const) {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(sources.requestLogRows()?.[field] ?? 0);
      },
    });
  }
}

export function createMetrics(sources: MetricSources, onError: (error: unknown) => void): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Gauges named like counters, which `promtool check metrics` rejects; the same counts are in
  // nodejs_active_handles, nodejs_active_requests and nodejs_active_resources (by type).
  for (const name of LINT_FAILING_DEFAULTS) registry.removeSingleMetric(name);
  const requests = new Counter({
    name: 'storefront_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'storefront_http_request_duration_seconds',
    help: 'Time from a request arriving to its response sent, by method, route template and status code',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const importLines = new Counter({
    name: 'storefront_import_lines_processed_total',
    help: 'Import lines committed by the jobs of this process (applied or recorded as failed)',
    registers: [registry],
  });
  const attempts = new Counter({
    name: 'storefront_webhook_attempts_total',
    help: 'Webhook delivery attempts made by this process, by outcome (succeeded: 2xx; failed: another status; timeout; error: no answer)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const attemptDuration = new Histogram({
    name: 'storefront_webhook_attempt_duration_seconds',
    help: 'Time from a webhook attempt starting to its answer (or timeout), by outcome',
    labelNames: ['outcome'],
    buckets: ATTEMPT_BUCKETS,
    registers: [registry],
  });
  // Every outcome present from the start, so a rate over a series that has not happened yet is 0, not absent.
  for (const outcome of ['succeeded', 'failed', 'timeout', 'error']) {
    attempts.inc({ outcome }, 0);
    attemptDuration.zero({ outcome });
  }
  registerDatabaseGauges(registry, sources, snapshots(sources, onError));
  registerRequestLogCounters(registry, sources);
  const observeRead = registerReplicaMetrics(registry, () => sources.replicas());
  return {
    observeRead,
    registry,
    observeRequest({ method, route, status, ms }) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, ms / 1000);
    },
    importLinesProcessed: (lines) => importLines.inc(lines),
    observeWebhookAttempt(outcome, seconds) {
      attempts.inc({ outcome });
      attemptDuration.observe({ outcome }, seconds);
    },
  };
}
