import type { Db, Tx } from '../db/index.js';
import { forbidden, found } from '../errors.js';
import { runList } from '../reads/index.js';
import { hasScope, isId, iso, isoOrNull, scopeResourceOf } from '../shared/index.js';
import { type ImportEncoding, isImportEncoding, type Job, type JobError, type JobErrorsQuery, type JobListQuery } from './jobs.schema.js';
import { findJob, type JobRow, lockJob, requestCancel } from './jobs.sql.js';
import { errorListSpec, jobListSpec, selectJobErrors, selectJobList } from './jobs-list.sql.js';
import type { JobKinds } from './runner.js';

/**
 * Jobs as the API shows them. A job is read with the read scope of its resource and cancelled with its
 * write scope (an import of products: products:read, products:write); a list shows only the jobs of
 * resources the credential may read.
 */

export function toJobOutput(row: JobRow): Job {
  return {
    id: row.id,
    type: row.type,
    resource: row.resource,
    status: row.status,
    total: row.total,
    processed: row.processed,
    created: row.created,
    updated: row.updated,
    failed: row.failed,
    encoding: encodingOf(row.params),
    warnings: row.warnings,
    createdLocations: row.created_locations,
    createdAt: iso(row.created_at),
    startedAt: isoOrNull(row.started_at),
    finishedAt: isoOrNull(row.finished_at),
  };
}

/** A CSV import keeps its file's encoding with its layout (src/imports/csv.ts CsvParams); anything else is UTF-8. */
function encodingOf(params: Record<string, unknown>): ImportEncoding {
  const encoding = (params.csv as { encoding?: unknown } | undefined)?.encoding;
  return isImportEncoding(encoding) ? encoding : 'utf-8';
}

/** The resources whose jobs the scopes read: `products:read` -> `products` (and `inventory`); `*` reads everything (null). */
function readableResources(scopes: readonly string[]): string[] | null {
  if (hasScope(scopes, '*')) return null;
  const named = scopes.filter((scope) => scope.endsWith(':read')).map((scope) => scope.slice(0, -':read'.length));
  return named.includes(scopeResourceOf('inventory')) ? [...named, 'inventory'] : named;
}

export async function listJobs(db: Db, storeId: string, scopes: readonly string[], query: JobListQuery) {
  const base = selectJobList(db, storeId, readableResources(scopes), query);
  const { rows, pagination } = await runList(base, query, jobListSpec, { db, storeId });
  return { data: rows.map(toJobOutput), pagination };
}

/** The job, if the store has it; 403 when the credential lacks the scope of its resource. */
export async function getJob(db: Db, storeId: string, scopes: readonly string[], id: string, access: 'read' | 'write' = 'read') {
  const row = found(isId(id) && (await findJob(db, storeId, id)), 'Job');
  assertScope(scopes, row, access);
  return row;
}

function assertScope(scopes: readonly string[], row: JobRow, access: 'read' | 'write'): void {
  const needed = `${scopeResourceOf(row.resource)}:${access}`;
  if (!hasScope(scopes, needed)) throw forbidden(needed);
}

export async function listJobErrors(db: Db, storeId: string, scopes: readonly string[], id: string, query: JobErrorsQuery) {
  await getJob(db, storeId, scopes, id);
  const params = { ...query, sort: 'createdAt' };
  const { rows, pagination } = await runList(selectJobErrors(db, storeId, id), params, errorListSpec, { db, storeId, within: [id] });
  const data = rows.map(({ column_name, level, ...row }) => ({
    ...row,
    column: column_name,
    level,
    details: row.details as JobError['details'],
  }));
  return { data, pagination };
}

/**
 * Cancels: a queued job at once, a running one after its current batch (its runner sees the flag in the
 * next batch's transaction); a finished job is returned as it is. The row is locked first, so a batch in
 * progress commits before the cancel is decided.
 */
export async function cancelJob(trx: Tx, kinds: JobKinds, storeId: string, scopes: readonly string[], id: string): Promise<Job> {
  const before = found(isId(id) && (await lockJob(trx, storeId, id)), 'Job');
  assertScope(scopes, before, 'write');
  if (before.status !== 'queued' && before.status !== 'running') return toJobOutput(before);
  const row = found(await requestCancel(trx, storeId, id), 'Job');
  // a queued job never reaches a runner: what it kept goes now (a running one's runner removes it)
  if (before.status === 'queued') await kinds[row.type]?.cleanup(row);
  return toJobOutput(row);
}
