import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { type Database, type Db, type Tx, withTx } from '../db/index.js';
import { startWakeLoop } from '../shared/index.js';
import {
  advanceJob,
  type BatchProgress,
  claimJob,
  finishHeldJob,
  type Held,
  insertJobErrors,
  JOBS_CHANNEL,
  type JobErrorInput,
  type JobRow,
  lockHeldJob,
  renewLease,
} from './jobs.sql.js';

/**
 * The job runner: every server process runs one (unless STOREFRONT_JOB_RUNNER=false). It claims one
 * runnable job at a time with a lease, renews the lease while the job runs, and hands the job to its
 * kind (registered by the folder that owns the work: imports). A kind works in batches through
 * `commitBatch`, whose transaction first checks that the job is still this runner's (and not cancelled),
 * then applies the batch and moves the job's counters and resume position: a job whose runner dies
 * resumes, in any process alive, exactly after its last committed batch.
 */

/** What one batch did, committed with it. */
export interface BatchOutcome {
  progress: BatchProgress;
  errors: JobErrorInput[];
}

export interface JobRun {
  job: JobRow;
  /**
   * Runs `work` in one transaction with the job's progress; false when the job must stop (cancelled,
   * another runner has it, this runner is stopping): `work` has then not run, or was rolled back.
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
  /** only jobs of this store (tests on a shared database) */
  storeId?: string;
  /** tests: stop after this many batches as if the process died (the job keeps its lease) */
  crashAfterBatches?: number;
  /** the runner is stopping: no new batch starts, and the job goes back to the queue */
  stopping?: () => boolean;
}

type Ending = 'done' | 'stopped' | 'cancelled' | 'lost' | 'crashed';

/** Claims one runnable job and runs it; false when there was none. */
export async function runOneJob(settings: RunnerSettings, options: RunOptions = {}): Promise<boolean> {
  const { db, leaseSeconds } = settings;
  const token = randomUUID();
  const job = await claimJob(db, token, leaseSeconds, options.storeId);
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
    const result = await withTx(settings.db, (trx) => oneBatch(trx, held, work, settings.leaseSeconds));
    batches++;
    if (result !== 'continue') ending = result;
    return result === 'continue';
  };
  await kind.run({ job, commitBatch });
  return ending;
}

async function oneBatch(trx: Tx, held: Held, work: (trx: Tx) => Promise<BatchOutcome>, leaseSeconds: number) {
  const state = await lockHeldJob(trx, held);
  if (!state) return 'lost' as const;
  if (state.cancel_requested) {
    await finishHeldJob(trx, held, 'cancelled');
    return 'cancelled' as const;
  }
  const { progress, errors } = await work(trx);
  await insertJobErrors(trx, held, errors);
  await advanceJob(trx, held, progress, leaseSeconds);
  return 'continue' as const;
}

async function settle(settings: RunnerSettings, job: JobRow, held: Held, ending: Ending): Promise<void> {
  const kind = settings.kinds[job.type];
  if (ending === 'crashed' || ending === 'lost') return;
  if (ending === 'stopped') {
    await release(settings.db, held);
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
  await release(settings.db, held).catch(() => undefined);
}

/** Back to the queue, keeping its progress: the next claim resumes it at once. */
async function release(db: Db, held: Held): Promise<void> {
  await sql`
    UPDATE jobs SET status = 'queued', lease_token = NULL, lease_until = NULL, updated_at = now()
    WHERE store_id = ${held.store_id} AND id = ${held.id} AND lease_token = ${held.token} AND status = 'running'`.execute(db);
}

/** Tests: runs the store's runnable jobs until none is left. */
export async function runJobsUntilIdle(settings: RunnerSettings, storeId: string): Promise<void> {
  while (await runOneJob(settings, { storeId })) {
    // next job
  }
}

const POLL_MS = 2_000;

/** Starts this process's runner; the returned function stops it (a running job is released at its next batch). */
export function startJobRunner(settings: RunnerSettings & { listen: Database['listen'] }): () => Promise<void> {
  let stopping = false;
  const stop = startWakeLoop({
    name: 'job runner',
    listen: settings.listen,
    channel: JOBS_CHANNEL,
    // lapsed leases are found by polling: at most a poll after the lease ends
    pollMs: POLL_MS,
    cycle: async () => ((await runOneJob(settings, { stopping: () => stopping })) ? 0 : POLL_MS),
    log: settings.log,
  });
  return async () => {
    stopping = true;
    await stop();
  };
}
