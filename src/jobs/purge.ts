import type { Db } from '../db/index.js';
import { type PurgeJob, purgeOnce } from '../shared/index.js';
import { deleteExpiredJobErrors, deleteJobs, selectExpiredJobs } from './jobs.sql.js';
import type { JobKinds } from './runner.js';

const EVERY_MS = 10 * 60 * 1000;

/**
 * Deletes one batch of what finished jobs past retention (STOREFRONT_JOB_RETENTION_DAYS after they ended)
 * keep: their error rows first, a batch at a time; then the jobs themselves, each after its kind's cleanup
 * (an import's upload, normally gone already when the job ended: this catches one a crash left behind).
 */
async function purgeBatch(db: Db, kinds: JobKinds, retentionDays: number, size: number): Promise<number> {
  const errors = await deleteExpiredJobErrors(db, retentionDays, size);
  // a full batch of errors: there may be more (the loop calls again); else the jobs, with what is left of the batch
  if (errors >= size) return errors;
  const jobs = await selectExpiredJobs(db, retentionDays, size - errors);
  for (const job of jobs) await kinds[job.type]?.cleanup(job);
  return errors + (await deleteJobs(db, jobs));
}

/** The retention purge of finished jobs, run by the shared purge loop in every process. */
export const jobPurge = (db: Db, kinds: JobKinds, retentionDays: number): PurgeJob => ({
  name: 'finished jobs past retention',
  deleteBatch: (size) => purgeBatch(db, kinds, retentionDays, size),
  everyMs: EVERY_MS,
});

/** One tick of it (tests). */
export const purgeFinishedJobs = (db: Db, kinds: JobKinds, retentionDays: number) =>
  purgeOnce(jobPurge(db, kinds, retentionDays).deleteBatch);
