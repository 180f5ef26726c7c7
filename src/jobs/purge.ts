import type { Db } from '../db/index.js';
import { deleteStoreByStore, type PurgeJob, purgeOnce } from '../shared/index.js';
import { deleteJobErrorsOf, deleteJobsOf, selectExpiredJobs } from './jobs.sql.js';
import type { JobKinds } from './runner.js';

const EVERY_MS = 10 * 60 * 1000;

/**
 * Deletes one batch of what finished jobs past retention (STOREFRONT_JOB_RETENTION_DAYS after they ended)
 * keep: their error rows first, a batch at a time; then the jobs themselves, each after its kind's cleanup
 * (an import's upload, normally gone already when the job ended: this catches one a crash left behind).
 * The jobs are read across stores without a lock; every delete is one store's (docs/scaling.md, §5).
 */
async function purgeBatch(db: Db, kinds: JobKinds, retentionDays: number, size: number): Promise<number> {
  const jobs = await selectExpiredJobs(db, retentionDays, size);
  let errors = 0;
  await deleteStoreByStore(jobs, async (storeId, ofStore) => {
    if (errors < size) errors += await deleteJobErrorsOf(db, storeId, ids(ofStore), size - errors);
    return 0;
  });
  // a full batch of errors: there may be more (the loop calls again); else the jobs, with what is left of the batch
  if (errors >= size) return errors;
  const left = jobs.slice(0, size - errors);
  for (const job of left) await kinds[job.type]?.cleanup(job);
  return errors + (await deleteStoreByStore(left, (storeId, ofStore) => deleteJobsOf(db, storeId, ids(ofStore))));
}

const ids = (jobs: readonly { id: string }[]) => jobs.map((job) => job.id);

/** The retention purge of finished jobs, run by the shared purge loop in every process. */
export const jobPurge = (db: Db, kinds: JobKinds, retentionDays: number): PurgeJob => ({
  name: 'finished jobs past retention',
  deleteBatch: (size) => purgeBatch(db, kinds, retentionDays, size),
  everyMs: EVERY_MS,
});

/** One tick of it (tests). */
export const purgeFinishedJobs = (db: Db, kinds: JobKinds, retentionDays: number) =>
  purgeOnce(jobPurge(db, kinds, retentionDays).deleteBatch);
