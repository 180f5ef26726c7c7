import { type Selectable, sql } from 'kysely';
import type { Db, Tx } from '../db/index.js';
import type { JobStatus, JobTable } from './jobs.tables.js';

export type JobRow = Selectable<JobTable>;

/** New jobs NOTIFY this channel so an idle runner starts at once rather than at its next poll. */
export const JOBS_CHANNEL = 'storefront_jobs';

export interface NewJob {
  storeId: string;
  id: string;
  type: string;
  resource: string;
  params: Record<string, unknown>;
  total: number | null;
}

export async function insertJob(trx: Tx, job: NewJob): Promise<JobRow> {
  const row = await trx
    .insertInto('jobs')
    .values({
      store_id: job.storeId,
      id: job.id,
      type: job.type,
      resource: job.resource,
      params: JSON.stringify(job.params),
      total: job.total,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await sql`SELECT pg_notify(${JOBS_CHANNEL}, '')`.execute(trx);
  return row;
}

export function selectJobs(db: Db, storeId: string) {
  return db.selectFrom('jobs').selectAll().where('store_id', '=', storeId);
}

export async function findJob(db: Db, storeId: string, id: string): Promise<JobRow | undefined> {
  return selectJobs(db, storeId).where('id', '=', id).executeTakeFirst();
}

export async function lockJob(trx: Tx, storeId: string, id: string): Promise<JobRow | undefined> {
  return trx.selectFrom('jobs').selectAll().where('store_id', '=', storeId).where('id', '=', id).forUpdate().executeTakeFirst();
}

/**
 * Claims the oldest runnable job (queued, or running with a lapsed lease: its holder died) across stores,
 * or of one store (tests), in one short statement: a job another runner holds or is claiming is skipped.
 */
export async function claimJob(db: Db, token: string, leaseSeconds: number, storeId?: string): Promise<JobRow | undefined> {
  const ofStore = storeId === undefined ? sql`` : sql`AND store_id = ${storeId}`;
  const { rows } = await sql<JobRow>`
    WITH next AS (
      SELECT store_id, id FROM jobs
      WHERE (status = 'queued' OR (status = 'running' AND lease_until < now())) ${ofStore}
      ORDER BY created_at LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    UPDATE jobs j SET status = 'running', lease_token = ${token}, lease_until = now() + make_interval(secs => ${leaseSeconds}),
      started_at = COALESCE(j.started_at, now()), updated_at = now()
    FROM next WHERE j.store_id = next.store_id AND j.id = next.id
    RETURNING j.*`.execute(db);
  return rows[0];
}

/** A held job, for the statements that must find it still held by this runner (else another has it). */
export interface Held {
  store_id: string;
  id: string;
  token: string;
}

/** Extends the lease; false when the job is no longer this runner's. */
export async function renewLease(db: Db, held: Held, leaseSeconds: number): Promise<boolean> {
  const result = await sql`
    UPDATE jobs SET lease_until = now() + make_interval(secs => ${leaseSeconds})
    WHERE store_id = ${held.store_id} AND id = ${held.id} AND lease_token = ${held.token} AND status = 'running'`.execute(db);
  return Number(result.numAffectedRows ?? 0n) > 0;
}

/**
 * First statement of a batch's transaction: locks the job row if this runner still holds it (so no one
 * claims it mid-batch, and a cancel waits for the batch). Undefined: the lease was lost, do nothing.
 */
export async function lockHeldJob(trx: Tx, held: Held): Promise<{ cancel_requested: boolean } | undefined> {
  const { rows } = await sql<{ cancel_requested: boolean }>`
    SELECT cancel_requested FROM jobs
    WHERE store_id = ${held.store_id} AND id = ${held.id} AND lease_token = ${held.token} AND status = 'running'
    FOR UPDATE`.execute(trx);
  return rows[0];
}

/** What one batch did: counter increments and where the next batch starts. */
export interface BatchProgress {
  processed: number;
  created: number;
  updated: number;
  failed: number;
  positionBytes: number;
  positionLine: number;
}

export async function advanceJob(trx: Tx, held: Held, progress: BatchProgress, leaseSeconds: number): Promise<void> {
  await sql`
    UPDATE jobs SET processed = processed + ${progress.processed}, created = created + ${progress.created},
      updated = updated + ${progress.updated}, failed = failed + ${progress.failed},
      position_bytes = ${progress.positionBytes}, position_line = ${progress.positionLine},
      lease_until = now() + make_interval(secs => ${leaseSeconds}), updated_at = now()
    WHERE store_id = ${held.store_id} AND id = ${held.id} AND lease_token = ${held.token}`.execute(trx);
}

/** Ends a held job (succeeded, failed, cancelled); false when it was no longer this runner's. */
export async function finishHeldJob(db: Db, held: Held, status: JobStatus, error: string | null = null): Promise<boolean> {
  const result = await sql`
    UPDATE jobs SET status = ${status}, error = ${error}, lease_token = NULL, lease_until = NULL,
      finished_at = now(), updated_at = now()
    WHERE store_id = ${held.store_id} AND id = ${held.id} AND lease_token = ${held.token} AND status = 'running'`.execute(db);
  return Number(result.numAffectedRows ?? 0n) > 0;
}

/**
 * Cancels a job of the store: a queued one at once, a running one at its next batch (its runner checks
 * the flag in each batch's transaction). Finished jobs are left as they are. Returns the row after.
 */
export async function requestCancel(trx: Tx, storeId: string, id: string): Promise<JobRow | undefined> {
  return trx
    .updateTable('jobs')
    .set({
      cancel_requested: true,
      status: sql<JobStatus>`CASE WHEN status = 'queued' THEN 'cancelled' ELSE status END`,
      finished_at: sql<Date>`CASE WHEN status = 'queued' THEN now() ELSE finished_at END`,
      updated_at: sql<Date>`CASE WHEN status IN ('queued', 'running') THEN now() ELSE updated_at END`,
    })
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export interface JobErrorInput {
  line: number;
  code: string;
  message: string;
  details: unknown[];
}

export async function insertJobErrors(trx: Tx, held: Held, errors: JobErrorInput[]): Promise<void> {
  if (errors.length === 0) return;
  await trx
    .insertInto('job_errors')
    .values(
      errors.map((error) => ({
        store_id: held.store_id,
        job_id: held.id,
        line: error.line,
        code: error.code,
        message: error.message,
        details: JSON.stringify(error.details),
      })),
    )
    .execute();
}

export function selectJobErrors(db: Db, storeId: string, jobId: string) {
  return db
    .selectFrom('job_errors')
    .select(['line', 'code', 'message', 'details'])
    .where('store_id', '=', storeId)
    .where('job_id', '=', jobId);
}
