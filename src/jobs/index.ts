/** The public surface of src/jobs: the job mechanism (table, runner, routes) that long work builds on. */
import type { Database } from '../db/index.js';
import type { App, AppContext } from '../http/index.js';
import { startPurgeLoop } from '../shared/index.js';
import { registerJobRoutes } from './jobs.routes.js';
import { jobPurge } from './purge.js';
import { type JobKinds, startJobRunner } from './runner.js';

export type { Job } from './jobs.schema.js';
export { IMPORT_ENCODINGS, type ImportEncoding, isImportEncoding, JOB_STATUSES, JobEnvelope } from './jobs.schema.js';
export { getJob, toJobOutput } from './jobs.service.js';
export { type BatchProgress, insertJob, type JobErrorInput, type JobRow, type NewJob, selectNamedFiles } from './jobs.sql.js';
export { selectErrorSources } from './jobs-list.sql.js';
export { countActiveJobs } from './jobs-stats.sql.js';
export { purgeFinishedJobs } from './purge.js';
export {
  type BatchOutcome,
  JobFailure,
  type JobKind,
  type JobKinds,
  type JobRun,
  type RunnerSettings,
  runOneJob,
} from './runner.js';

/**
 * The jobs routes, the retention purge of finished jobs, and this process's runner unless
 * STOREFRONT_JOB_RUNNER is off (tests run jobs by hand).
 */
export async function registerJobs(api: App, ctx: AppContext, listen: Database['listen'], kinds: JobKinds): Promise<void> {
  await registerJobRoutes(api, ctx, kinds);
  const stopPurge = startPurgeLoop(jobPurge(ctx.db, kinds, ctx.config.jobRetentionDays), api.log);
  api.addHook('onClose', async () => stopPurge());
  if (!ctx.config.jobRunner) return;
  const stop = startJobRunner({ db: ctx.db, kinds, listen, leaseSeconds: ctx.config.jobLeaseSeconds, log: api.log });
  api.addHook('onClose', async () => stop());
}
