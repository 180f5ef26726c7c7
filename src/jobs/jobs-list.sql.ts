import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import type { ListSpec } from '../reads/index.js';
import type { JobListQuery } from './jobs.schema.js';
import { selectJobs } from './jobs.sql.js';

/** The SQL of the jobs lists: GET /jobs and GET /jobs/{id}/errors. */

export const jobListSpec: ListSpec<readonly ['createdAt']> = {
  path: '/jobs',
  sorts: { createdAt: sql`created_at`, updatedAt: sql`updated_at` },
  idColumn: sql`id`,
  search: (pattern) => sql`resource ILIKE ${pattern}`,
};

/** The store's jobs of the `readable` resources (every resource: null), filtered by status and resource. */
export function selectJobList(db: Db, storeId: string, readable: string[] | null, query: Pick<JobListQuery, 'status' | 'resource'>) {
  let base = selectJobs(db, storeId);
  if (readable !== null) base = readable.length ? base.where('resource', 'in', readable) : base.where(sql<boolean>`false`);
  if (query.status !== undefined) base = base.where('status', '=', query.status);
  if (query.resource !== undefined) base = base.where('resource', '=', query.resource);
  return base;
}

// Errors come in line order only (the query takes no sort and no updatedSince): both keys are the line, and a
// row's id its line and its place among the line's rows (a record may have several warnings, 0110), written as
// the 24 hex digits a cursor's id is (zero-padded, so their order is the numbers' order).
export const errorListSpec: ListSpec<readonly ['createdAt']> = {
  path: '/jobs/{id}/errors',
  sorts: { createdAt: sql`line`, updatedAt: sql`line` },
  idColumn: sql`lpad(to_hex(line::bigint * 1000000 + seq), 24, '0')`,
  search: () => sql`true`,
};

export function selectJobErrors(db: Db, storeId: string, jobId: string) {
  return db
    .selectFrom('job_errors')
    .select(['line', 'level', 'code', 'message', 'details', 'column_name'])
    .where('store_id', '=', storeId)
    .where('job_id', '=', jobId);
}

/** Up to `limit` of a job's error rows (never warnings) after `afterLine` that kept their line's source, in line order. */
export function selectErrorSources(db: Db, storeId: string, jobId: string, afterLine: number, limit: number) {
  return db
    .selectFrom('job_errors')
    .select(['line', 'code', 'message', 'details', 'column_name', 'source'])
    .where('store_id', '=', storeId)
    .where('job_id', '=', jobId)
    .where('line', '>', afterLine)
    .where('level', '=', 'error')
    .where('source', 'is not', null)
    .orderBy('line')
    .limit(limit)
    .execute();
}
