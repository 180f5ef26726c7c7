import { type Selectable, sql } from 'kysely';
import type { DB, Db, JobStatus, Tx } from '../db/index.js';

export type JobRow = Selectable<DB['jobs']>;

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

/** A job anyone may claim: queued, or running without a live lease (its holder died, or handed it back after a turn). */
const RUNNABLE = sql`(status = 'queued' OR (status = 'running' AND lease_until <= now()))`;

const ofStores = (stores: readonly string[] | undefined, column = sql`store_id`) =>
  stores === undefined ? sql`` : sql`AND ${column} = ANY (${[...stores]}::text[])`;

// How many stores a claim tries in turn: each try skips jobs another runner holds or is claiming.
const STORES_PER_CLAIM = 8;

/**
 * Claims a runnable job, in turns across stores: of the stores with a runnable job, the one served longest
 * ago (never served first), and its oldest job; the store's turn is recorded with the claim. Only among
 * `stores` when given (tests). The stores are read first, without a lock; then each is claimed from on its
 * own, in that order, until one has a job no other runner holds or is claiming: no statement locks rows of
 * two stores (a sharded database runs each claim on one shard, docs/scaling.md).
 */
export async function claimJob(db: Db, token: string, leaseSeconds: number, stores?: readonly string[]): Promise<JobRow | undefined> {
  for (const storeId of await storesInTurn(db, stores)) {
    const job = await claimStoreJob(db, storeId, token, leaseSeconds);
    if (job) return job;
  }
  return undefined;
}

/** The stores with a runnable job, the one served longest ago first (then the one whose job waits longest). */
async function storesInTurn(db: Db, stores?: readonly string[]): Promise<string[]> {
  const { rows } = await sql<{ store_id: string }>`
    SELECT j.store_id FROM jobs j LEFT JOIN job_turns t ON t.store_id = j.store_id
    WHERE ${RUNNABLE} ${ofStores(stores, sql`j.store_id`)}
    GROUP BY j.store_id, t.served_at ORDER BY t.served_at NULLS FIRST, min(j.created_at), j.store_id
    LIMIT ${STORES_PER_CLAIM}`.execute(db);
  return rows.map((row) => row.store_id);
}

/** Claims the store's oldest runnable job (one another runner holds or is claiming is skipped) and records its turn. */
async function claimStoreJob(db: Db, storeId: string, token: string, leaseSeconds: number): Promise<JobRow | undefined> {
  const { rows } = await sql<JobRow>`
    WITH next AS (
      SELECT j.store_id, j.id FROM jobs j WHERE j.store_id = ${storeId} AND ${RUNNABLE}
      ORDER BY j.created_at, j.id LIMIT 1
      FOR UPDATE SKIP LOCKED
    ), turn AS (
      INSERT INTO job_turns (store_id, served_at) SELECT ${storeId}, now() WHERE EXISTS (SELECT 1 FROM next)
      ON CONFLICT (store_id) DO UPDATE SET served_at = EXCLUDED.served_at
    )
    UPDATE jobs j SET status = 'running', lease_token = ${token}, lease_until = now() + make_interval(secs => ${leaseSeconds}),
      started_at = COALESCE(j.started_at, now()), updated_at = now()
    FROM next WHERE j.store_id = ${storeId} AND j.id = next.id
    RETURNING j.*`.execute(db);
  return rows[0];
}

/** Whether another store (among `stores`, when given) has a runnable job waiting: the holder then hands its job back. */
export async function othersWaiting(trx: Tx, held: Held, stores?: readonly string[]): Promise<boolean> {
  const { rows } = await sql<{ waiting: boolean }>`
    SELECT EXISTS (SELECT 1 FROM jobs WHERE ${RUNNABLE} AND store_id <> ${held.store_id} ${ofStores(stores)}) AS waiting`.execute(trx);
  return rows[0].waiting;
}

/**
 * Ends this runner's turn: the job stays `running` (it is, for whoever asks) but its lease is given up, so
 * the next claim, of any process, may take it or another store's job first. Its position is committed.
 */
export async function handBack(db: Db, held: Held): Promise<void> {
  // a second in the past: timestamptz(3) may round now() up, and the next claim must see it lapsed
  await sql`
    UPDATE jobs SET lease_token = NULL, lease_until = now() - interval '1 second', updated_at = now()
    WHERE store_id = ${held.store_id} AND id = ${held.id} AND lease_token = ${held.token} AND status = 'running'`.execute(db);
}

/** Back to the queue, keeping its progress: the next claim resumes it at once. */
export async function releaseHeldJob(db: Db, held: Held): Promise<void> {
  await sql`
    UPDATE jobs SET status = 'queued', lease_token = NULL, lease_until = NULL, updated_at = now()
    WHERE store_id = ${held.store_id} AND id = ${held.id} AND lease_token = ${held.token} AND status = 'running'`.execute(db);
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
export async function lockHeldJob(
  trx: Tx,
  held: Held,
): Promise<{ cancel_requested: boolean; failed: number; warnings: number } | undefined> {
  const { rows } = await sql<{ cancel_requested: boolean; failed: number; warnings: number }>`
    SELECT cancel_requested, failed, warnings FROM jobs
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
  /** warning rows the batch's lines produced (values changed or made up: CONTRACT §10.4) */
  warnings: number;
  positionBytes: number;
  positionLine: number;
}

/** Adds a batch's counters, moves the resume position, and appends the locations it created (each name once). */
export async function advanceJob(
  trx: Tx,
  held: Held,
  progress: BatchProgress,
  leaseSeconds: number,
  createdLocations: readonly string[] = [],
): Promise<void> {
  const appended =
    createdLocations.length === 0
      ? sql`created_locations`
      : sql`created_locations || ARRAY(SELECT DISTINCT ON (lower(n)) n FROM unnest(${[...createdLocations]}::text[]) WITH ORDINALITY AS u(n, i)
          WHERE lower(n) <> ALL (SELECT lower(c) FROM unnest(created_locations) AS c) ORDER BY lower(n), i)`;
  await sql`
    UPDATE jobs SET processed = processed + ${progress.processed}, created = created + ${progress.created},
      updated = updated + ${progress.updated}, failed = failed + ${progress.failed},
      warnings = warnings + ${progress.warnings}, created_locations = ${appended},
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
  /** 'error': the line was refused (the default); 'warning': the line was applied with a value changed or made up */
  level?: 'error' | 'warning';
  /** its place among the rows of its line (a record may have several warnings); 0 for an error */
  seq?: number;
  code: string;
  message: string;
  details: unknown[];
  /** a CSV import's error: the header of the offending cell (null when no one cell caused it) */
  column?: string | null;
  /** the failed line as the file had it (JSON: NDJSON text, or CSV records' cells), for GET /jobs/{id}/failed-rows */
  source?: unknown;
}

/**
 * A job keeps at most this many error rows (its `failed` counter counts every failed line): a file of a
 * million bad lines made a million rows (269 MB) and spent most of its time writing them.
 */
export const MAX_ERROR_ROWS = 1_000;

export async function insertJobErrors(trx: Tx, held: Held, errors: JobErrorInput[]): Promise<void> {
  if (errors.length === 0) return;
  await trx
    .insertInto('job_errors')
    .values(
      errors.map((error) => ({
        store_id: held.store_id,
        job_id: held.id,
        line: error.line,
        level: error.level ?? 'error',
        seq: error.seq ?? 0,
        code: error.code,
        message: error.message,
        details: JSON.stringify(error.details),
        column_name: error.column ?? null,
        source: error.source === undefined || error.source === null ? null : JSON.stringify(error.source),
      })),
    )
    .execute();
}

/** Deletes a job's newest `count` warning rows (an error row needs their room: the cap counts errors first). */
export async function deleteNewestWarnings(trx: Tx, held: Held, count: number): Promise<void> {
  if (count <= 0) return;
  await sql`
    DELETE FROM job_errors e USING (
      SELECT line, seq FROM job_errors WHERE store_id = ${held.store_id} AND job_id = ${held.id} AND level = 'warning'
      ORDER BY line DESC, seq DESC LIMIT ${count}
    ) d WHERE e.store_id = ${held.store_id} AND e.job_id = ${held.id} AND e.line = d.line AND e.seq = d.seq`.execute(trx);
}

const FINISHED = sql`status IN ('succeeded', 'failed', 'cancelled')`;
const expired = (retentionDays: number) => sql`${FINISHED} AND finished_at < now() - make_interval(days => ${retentionDays})`;

export type ExpiredJob = Pick<JobRow, 'store_id' | 'id' | 'type' | 'params'>;

/** At most `size` finished jobs past retention, oldest end first, of any stores (read without a lock). */
export async function selectExpiredJobs(db: Db, retentionDays: number, size: number): Promise<ExpiredJob[]> {
  const { rows } = await sql<ExpiredJob>`
    SELECT store_id, id, type, params FROM jobs WHERE ${expired(retentionDays)} ORDER BY finished_at LIMIT ${size}`.execute(db);
  return rows;
}

/** Deletes at most `size` error rows of the store's finished `jobs` (a job from before the cap may have a million). */
export async function deleteJobErrorsOf(db: Db, storeId: string, jobs: readonly string[], size: number): Promise<number> {
  const result = await sql`
    DELETE FROM job_errors e USING (
      SELECT x.job_id, x.line, x.seq FROM unnest(${[...jobs]}::text[]) AS j(id) CROSS JOIN LATERAL (
        SELECT job_id, line, seq FROM job_errors WHERE store_id = ${storeId} AND job_id = j.id LIMIT ${size}
      ) x LIMIT ${size}
    ) d WHERE e.store_id = ${storeId} AND e.job_id = d.job_id AND e.line = d.line AND e.seq = d.seq`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** Deletes the store's finished `jobs`. */
export async function deleteJobsOf(db: Db, storeId: string, jobs: readonly string[]): Promise<number> {
  const result = await sql`
    DELETE FROM jobs WHERE store_id = ${storeId} AND id = ANY (${[...jobs]}::text[]) AND ${FINISHED}`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** Which of `files` (upload names of the store) a job of the store names in its params: an upload no job names is an orphan. */
export async function selectNamedFiles(db: Db, storeId: string, files: readonly string[]): Promise<Set<string>> {
  if (files.length === 0) return new Set();
  const { rows } = await sql<{ file: string }>`
    SELECT params->>'file' AS file FROM jobs WHERE store_id = ${storeId} AND params->>'file' = ANY(${[...files]}::text[])`.execute(db);
  return new Set(rows.map((row) => row.file));
}
