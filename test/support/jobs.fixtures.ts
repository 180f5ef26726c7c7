import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createUploadStore, importJobKinds } from '../../src/imports/index.js';
import { type RunOptions, runOneJob } from '../../src/jobs/runner.js';
import { createMediaStore } from '../../src/media/index.js';
import type { TestContext, TestStore } from '../helpers.js';

const quiet = { warn: () => undefined, error: () => undefined };

/** The runner of a test: the app's job kinds, only the store's jobs (the PostgreSQL database is shared). */
export function runnerOf(t: TestContext) {
  // batches of exactly 100 lines (no time cut on a slow machine), so tests know where each batch ends
  const ctx = { config: t.config, media: createMediaStore(t.config, t.database), afterWork: t.afterWork };
  const kinds = importJobKinds(ctx, createUploadStore(t.config.dataDir, t.database), quiet, { lines: 100, ms: 3_600_000 });
  return { db: t.database.db, kinds, leaseSeconds: 30, log: quiet };
}

/** Runs the store's runnable jobs to the end (tests run without the background runner). */
export async function runStoreJobs(t: TestContext, store: TestStore, options: Omit<RunOptions, 'storeId'> = {}): Promise<void> {
  while (await runOneJob(runnerOf(t), { ...options, storeId: store.id })) {
    if (options.crashAfterBatches !== undefined) return;
  }
}

/** Runs one batch of the store's job and "crashes", lets the lease lapse, then runs the job to its end: a resume. */
export async function runStoreJobsResumed(t: TestContext, store: TestStore): Promise<void> {
  await runStoreJobs(t, store, { crashAfterBatches: 1 });
  await t.database.db
    .updateTable('jobs')
    .set({ lease_until: new Date(0) })
    .where('store_id', '=', store.id)
    .execute();
  await runStoreJobs(t, store);
}

export const NDJSON = { 'content-type': 'application/x-ndjson' };

/** POST /imports with `lines` (objects become JSON lines, strings are sent as they are). */
export function postImport(
  t: TestContext,
  store: TestStore | string,
  resource: string,
  lines: unknown[],
  headers: Record<string, string> = {},
) {
  const body = lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n');
  return t.call(store, 'POST', `/imports?resource=${resource}`, body, { ...NDJSON, ...headers });
}

/** Imports and runs the job to its end; returns the finished job. */
export async function importAndRun(t: TestContext, store: TestStore, resource: string, lines: unknown[]) {
  const posted = await postImport(t, store, resource, lines);
  if (posted.status !== 202) throw new Error(`POST /imports: ${posted.status} ${JSON.stringify(posted.body)}`);
  await runStoreJobs(t, store);
  const job = await t.call(store, 'GET', `/jobs/${posted.body.data.id}`);
  return job.body.data;
}

/** The names of a store's stored import uploads (files on PGlite, blobs on PostgreSQL: src/imports/upload.ts). */
export async function storedUploads(t: Pick<TestContext, 'config' | 'database'>, storeId: string): Promise<string[]> {
  if (t.database.engine === 'postgres') {
    const rows = await t.database.db.selectFrom('blobs').select('key').where('key', 'like', `upload/${storeId}-%`).execute();
    return rows.map((row) => row.key);
  }
  const dir = join(t.config.dataDir, 'imports');
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.startsWith(`${storeId}-`)) : [];
}
