import type { App, AppContext } from '../http/index.js';
import { sendWrite } from '../http/index.js';
import { IdParams, ok, okList } from '../shared/index.js';
import { JobEnvelope, JobErrorListEnvelope, JobErrorsQuery, JobListEnvelope, JobListQuery } from './jobs.schema.js';
import { cancelJob, getJob, listJobErrors, listJobs, toJobOutput } from './jobs.service.js';
import type { JobKinds } from './runner.js';

const tags = ['Jobs'];
// A job is read with its resource's read scope, cancelled with its write scope: the service checks it
// against the job (a list shows only the jobs the credential may read).
const byJob = {
  scope: () => null,
  // a job moves by its runner's writes, not the caller's: progress is read on the primary
  reads: 'primary' as const,
  scopeNote: "the job's resource's read scope (`products:read` for a products import); its write scope to cancel",
};

export async function registerJobRoutes(app: App, ctx: AppContext, kinds: JobKinds): Promise<void> {
  const { db } = ctx;
  app.get(
    '/jobs',
    { config: byJob, schema: { tags, summary: 'List jobs (imports)', querystring: JobListQuery, response: { 200: JobListEnvelope } } },
    async (request) => {
      const { data, pagination } = await listJobs(db, request.auth.storeId, request.auth.scopes, request.query);
      return okList(data, pagination);
    },
  );
  app.get(
    '/jobs/:id',
    { config: byJob, schema: { tags, summary: 'Get a job: status and counters', params: IdParams, response: { 200: JobEnvelope } } },
    async (request) => ok(toJobOutput(await getJob(db, request.auth.storeId, request.auth.scopes, request.params.id))),
  );
  app.get(
    '/jobs/:id/errors',
    {
      config: byJob,
      schema: {
        tags,
        summary: "A job's failed lines, in line order",
        params: IdParams,
        querystring: JobErrorsQuery,
        response: { 200: JobErrorListEnvelope },
      },
    },
    async (request) => {
      const { storeId, scopes } = request.auth;
      const { data, pagination } = await listJobErrors(db, storeId, scopes, request.params.id, request.query);
      return okList(data, pagination);
    },
  );
  app.post(
    '/jobs/:id/cancel',
    {
      config: { ...byJob, event: false },
      schema: {
        tags,
        summary: 'Cancel a job (a running one stops after its current batch)',
        params: IdParams,
        response: { 200: JobEnvelope },
      },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => cancelJob(trx, kinds, storeId, request.auth.scopes, request.params.id)),
  );
}
