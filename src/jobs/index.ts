/** The public surface of src/jobs: the job mechanism (table, runner, routes) that long work builds on. */
import type { Database } from '../db/index.js';
import type { App, AppContext } from '../http/index.js';
import { registerJobRoutes } from './jobs.routes.js';
import { type JobKinds, startJobRunner } from './runner.js';

export type { Job } from './jobs.schema.js';
export { JobEnvelope } from './jobs.schema.js';
export { toJobOutput } from './jobs.service.js';
export { type BatchProgress, insertJob, type JobErrorInput, type JobRow, type NewJob } from './jobs.sql.js';
export type { JobTables } from './jobs.tables.js';
export {
  type BatchOutcome,
  JobFailure,
  type JobKind,
  type JobKinds,
  type JobRun,
  type RunnerSettings,
  runJobsUntilIdle,
  runOneJob,
} from './runner.js';

/** The jobs routes, and this process's runner unless STOREFRONT_JOB_RUNNER is off (tests run jobs by hand). */
export async function registerJobs(api: App, ctx: AppContext, listen: Database['listen'], kinds: JobKinds): Promise<void> {
  await registerJobRoutes(api, ctx, kinds);
  if (!ctx.config.jobRunner) return;
  const stop = startJobRunner({ db: ctx.db, kinds, listen, leaseSeconds: ctx.config.jobLeaseSeconds, log: api.log });
  api.addHook('onClose', async () => stop());
}
