import { randomUUID } from 'node:crypto';
import { type Database, type Db, type Tx, withTx } from '../db/index.js';
import { startWakeLoop } from '../shared/index.js';
import { inSpan } from '../tracing/index.js';
import {
  advanceJob,
  type BatchProgress,
  claimJob,
  deleteNewestWarnings,
  finishHeldJob,
  type Held,
  handBack,
  insertJobErrors,
  JOBS_CHANNEL,
  type JobErrorInput,
  type JobRow,
  lockHeldJob,
  MAX_ERROR_ROWS,
  othersWaiting,
  releaseHeldJob,
  renewLease,
} from './jobs.sql.js';

/**
 * The job runner: every server process runs one (unless STOREFRONT_JOB_RUNNER=false). It claims one
 * runnable job at a time with a lease, renews the lease while the job runs, and hands the job to its
 * kind (registered by the folder that owns the work: imports). A kind works in batches through
 * `commitBatch`, whose transaction first checks that the job is still this runner's (and not cancelled),
 * then applies the batch and moves the job's counters and resume position: a job whose runner dies
 * resumes, in any process alive, exactly after its last committed batch.
 *
 * Jobs take turns across stores: after each batch, if another store has a runnable job waiting, the
 * runner hands its job back (still `running`, lease given up) and claims again; the claim prefers the
 * store served longest ago (claimJob). So a one-line import of one store waits for one batch of another
 * store's long import, not for all of it; with no other store waiting, a job keeps its runner.
 */

/** What one batch did, committed with it. */
export interface BatchOutcome {
  progress: BatchProgress;
  errors: JobErrorInput[];
  /** locations the batch's lines created (an inventory import: the job's createdLocations) */
  createdLocations?: readonly string[];
}

export interface JobRun {
  job: JobRow;
  /**
   * Runs `work` in one transaction with the job's progress; false when the job must stop (cancelled,
   * another runner has it, this runner is stopping: `work` has then not run, or was rolled back) or its
   * turn is over (`work` committed; the job continues from there at its next claim).
   */
  commitBatch(work: (trx: Tx) => Promise<BatchOutcome>): Promise<boolean>;
}

export interface JobKind {
  /** runs the job from its resume position; returns when its work is done or commitBatch said stop */
  run(run: JobRun): Promise<void>;
  /** once the job has ended (succeeded, failed, cancelled): removes what it kept (an import's file) */
  cleanup(job: Pick<JobRow, 'store_id' | 'id' | 'params'>): Promise<void>;
}

/** A failure of the job itself (its input is gone or unreadable): the job ends as `failed`. */
export class JobFailure extends Error {}

/** How each type of job runs, by type: given by the folders that own the work (imports). */
export type JobKinds = Readonly<Record<string, JobKind | undefined>>;

export interface RunnerSettings {
  db: Db;
  kinds: JobKinds;
  leaseSeconds: number;
  log: { warn(object: object, message: string): void; error(object: object, message: string): void };
}

export interface RunOptions {
  /** only jobs of this store (tests on a shared database); its job never hands its turn to another store */
  storeId?: string;
  /** only jobs of these stores, taking turns among them (tests) */
  stores?: readonly string[];
  /** tests: stop after this many batches as if the process died (the job keeps its lease) */
  crashAfterBatches?: number;
  /** the runner is stopping: no new batch starts, and the job goes back to the queue */
  stopping?: () => boolean;
}

type Ending = 'done' | 'stopped' | 'cancelled' | 'lost' | 'crashed' | 'turn over';

const storesOf = (options: RunOptions) => options.stores ?? (options.storeId === undefined ? undefined : [options.storeId]);

/** Claims one runnable job and runs it; false when there was none. */
export async function runOneJob(settings: RunnerSettings, options: RunOptions = {}): Promise<boolean> {
  const { db, leaseSeconds } = settings;
  const token = randomUUID();
  const job = await claimJob(db, token, leaseSeconds, storesOf(options));
  if (!job) return false;
  const held: Held = { store_id: job.store_id, id: job.id, token };
  const heartbeat = setInterval(() => void renewLease(db, held, leaseSeconds).catch(() => undefined), (leaseSeconds * 1000) / 3);
  heartbeat.unref();
  try {
    const ending = await runHeld(settings, job, held, options);
    await settle(settings, job, held, ending);
  } catch (error) {
    await failOrRelease(settings, job, held, error);
  } finally {
    clearInterval(heartbeat);
  }
  return true;
}

async function runHeld(settings: RunnerSettings, job: JobRow, held: Held, options: RunOptions): Promise<Ending> {
  const kind = settings.kinds[job.type];
  if (!kind) throw new JobFailure(`no runner for jobs of type ${job.type}`);
  let ending: Ending = 'done';
  let batches = 0;
  const commitBatch: JobRun['commitBatch'] = async (work) => {
    if (options.crashAfterBatches !== undefined && batches >= options.crashAfterBatches) ending = 'crashed';
    else if (options.stopping?.()) ending = 'stopped';
    if (ending !== 'done') return false;
    // a test that crashes after n batches counts them in one claim: no turns then
    const turns = options.crashAfterBatches === undefined ? storesOf(options) : [];
    const result = await inSpan(
      'job batch',
      batchAttributes(job, batches + 1),
      () => withTx(settings.db, (trx) => oneBatch(trx, held, work, settings.leaseSeconds, turns)),
      (ending) => ({ 'storefront.job.batch_result': ending }),
    );
    batches++;
    if (result !== 'continue') ending = result;
    return result === 'continue';
  };
  await kind.run({ job, commitBatch });
  return ending;
}

const batchAttributes = (job: JobRow, batch: number) => ({
  'storefront.store_id': job.store_id,
  'storefront.job_id': job.id,
  'storefront.job.type': job.type,
  'storefront.job.batch': batch,
  // the request that posted the job, when it said (imports do)
  ...(typeof job.params.requestId === 'string' ? { 'storefront.request_id': job.params.requestId } : {}),
});

/** One batch in its transaction; `turns`: the stores whose waiting jobs end this job's turn (all: undefined). */
async function oneBatch(trx: Tx, held: Held, work: (trx: Tx) => Promise<BatchOutcome>, leaseSeconds: number, turns?: readonly string[]) {
  const state = await lockHeldJob(trx, held);
  if (!state) return 'lost' as const;
  if (state.cancel_requested) {
    await finishHeldJob(trx, held, 'cancelled');
    return 'cancelled' as const;
  }
  const { progress, errors, createdLocations = [] } = await work(trx);
  await keepRows(trx, held, state, errors);
  await advanceJob(trx, held, progress, leaseSeconds, createdLocations);
  if (turns?.length !== 0 && (await othersWaiting(trx, held, turns))) return 'turn over' as const;
  return 'continue' as const;
}

/**
 * The batch's error and warning rows within the cap, errors first (CONTRACT §10.4): the rows a job has are
 * min(failed, cap) error rows and min(warnings, cap - those) warning rows, so both counts follow from the
 * counters; an error that needs a warning's room deletes the newest warning row.
 */
async function keepRows(trx: Tx, held: Held, state: { failed: number; warnings: number }, rows: JobErrorInput[]) {
  const errors = rows.filter((row) => row.level !== 'warning');
  const warnings = rows.filter((row) => row.level === 'warning');
  const errorsBefore = Math.min(state.failed, MAX_ERROR_ROWS);
  const warningsBefore = Math.min(state.warnings, MAX_ERROR_ROWS - errorsBefore);
  const errorsAfter = Math.min(state.failed + errors.length, MAX_ERROR_ROWS);
  const warningsAfter = Math.min(state.warnings + warnings.length, MAX_ERROR_ROWS - errorsAfter);
  await deleteNewestWarnings(trx, held, warningsBefore - warningsAfter);
  const kept = [...errors.slice(0, errorsAfter - errorsBefore), ...warnings.slice(0, Math.max(0, warningsAfter - warningsBefore))];
  await insertJobErrors(trx, held, kept);
}

async function settle(settings: RunnerSettings, job: JobRow, held: Held, ending: Ending): Promise<void> {
  const kind = settings.kinds[job.type];
  if (ending === 'crashed' || ending === 'lost') return;
  if (ending === 'turn over') {
    await handBack(settings.db, held);
    return;
  }
  if (ending === 'stopped') {
    await releaseHeldJob(settings.db, held);
    return;
  }
  if (ending === 'done' && !(await finishHeldJob(settings.db, held, 'succeeded'))) return;
  await kind?.cleanup(job);
}

async function failOrRelease(settings: RunnerSettings, job: JobRow, held: Held, error: unknown): Promise<void> {
  if (error instanceof JobFailure) {
    settings.log.warn({ jobId: job.id, err: error }, 'job failed');
    if (await finishHeldJob(settings.db, held, 'failed', error.message)) await settings.kinds[job.type]?.cleanup(job);
    return;
  }
  // Anything else (the database went away, a bug): the job goes back to the queue and is tried again.
  settings.log.error({ jobId: job.id, err: error }, 'job interrupted by an error; it will resume');
  await releaseHeldJob(settings.db, held).catch(() => undefined);
}

const POLL_MS = 2_000;

/** Starts this process's runner; the returned function stops it (a running job is released at its next batch). */
export function startJobRunner(settings: RunnerSettings & { listen: Database['listen'] }): () => Promise<void> {
  let stopping = false;
  const loop = startWakeLoop({
    name: 'job runner',
    listen: settings.listen,
    channels: [JOBS_CHANNEL],
    // lapsed leases are found by polling: at most a poll after the lease ends
    pollMs: POLL_MS,
    cycle: async () => ((await runOneJob(settings, { stopping: () => stopping })) ? 0 : POLL_MS),
    log: settings.log,
  });
  return async () => {
    stopping = true;
    await loop.stop();
  };
}
