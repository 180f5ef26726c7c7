import { Type } from '@sinclair/typebox';
import { html } from 'ghtml';
import { invalidField } from '../errors.js';
import { JOB_STATUSES } from '../jobs/index.js';
import { IdParams } from '../shared/index.js';
import type { ConsoleApi } from './api.js';
import { csrfField } from './layout.js';
import type { ConsoleRouter } from './router.js';
import type { ScreenDeps } from './screen-deps.js';
import type { ConsoleSession } from './sessions.js';
import { facts, filterForm, link, nextPageLink, table, when } from './view.js';

/**
 * Imports (CONTRACT §12): a file (Shopify or WooCommerce CSV, NDJSON) and its resource, "Dry run" first, then
 * "Import". The file goes on, as it arrives, to POST /imports through the API (api.ts `upload`): the same
 * upload, layout recognition, limits and job as the API's. A job's page shows its counters and, while it runs,
 * reloads its progress section every second (htmx, hx-select on this same page); once finished, every error
 * row kept (line, column, code, message), "Download failed rows" (GET /jobs/{id}/failed-rows) and, while
 * running, "Cancel".
 */

const RESOURCES = ['products', 'collections', 'customers', 'orders'] as const;
const UploadQuery = Type.Object({ mode: Type.Union([Type.Literal('dry-run'), Type.Literal('import')]) });
// the list of jobs: GET /jobs' search and filters ('' from the form is no filter), by its cursor
const JobsQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 200 })),
  status: Type.Optional(Type.Union([Type.Literal(''), ...JOB_STATUSES.map((status) => Type.Literal(status))])),
  resource: Type.Optional(Type.Union([Type.Literal(''), ...RESOURCES.map((resource) => Type.Literal(resource))])),
  cursor: Type.Optional(Type.String({ maxLength: 4000 })),
});
const JOBS_PAGE = '25';
// the job page of a dry run says "would create" (the job itself does not say it is one)
const JobQuery = Type.Object({ dryRun: Type.Optional(Type.Literal('true')) });
// the job's error rows (at most 1,000 are kept): four pages of the API's largest
const ERROR_PAGES = 4;

interface Job {
  id: string;
  resource: string;
  status: string;
  total: number | null;
  processed: number;
  created: number;
  updated: number;
  failed: number;
  encoding: string;
  warnings: number;
  createdAt: string;
  finishedAt: string | null;
}

const running = (job: Job) => job.status === 'queued' || job.status === 'running';

/** CSV by its name or type; anything else is NDJSON (the API refuses what is neither). */
const contentTypeOf = (name: string, mimetype: string) =>
  /\.csv$/i.test(name) || /^text\/csv|excel/i.test(mimetype) ? 'text/csv' : 'application/x-ndjson';

function uploadForm(session: ConsoleSession): string {
  const options = RESOURCES.map((resource) => html`<option value="${resource}">${resource}</option>`).join('');
  const to = (mode: string) => `/console/imports?mode=${mode}&_csrf=${encodeURIComponent(session.csrf)}`;
  // Fields before the file: a multipart body brings them first. The buttons say where it goes (formaction).
  return html`<form method="post" action="${to('dry-run')}" enctype="multipart/form-data" class="stack">
<div><label for="import-resource">Resource</label><select id="import-resource" name="resource">!${options}</select></div>
<div><label for="import-file">File</label><input id="import-file" name="file" type="file" required accept=".csv,.ndjson,.jsonl,text/csv,application/x-ndjson"></div>
<p class="muted">Shopify or WooCommerce CSV, or NDJSON (one record per line). Run a dry run first: it checks every line and writes nothing.</p>
<button type="submit" formaction="${to('dry-run')}">Dry run</button> <button type="submit" formaction="${to('import')}" class="secondary">Import</button>
</form>`;
}

async function errorRows(api: ConsoleApi, session: ConsoleSession, id: string) {
  const rows: { line: number; column: string | null; level: string; code: string; message: string }[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < ERROR_PAGES; page++) {
    const answer = await api.get(session, `/jobs/${id}/errors`, { limit: '250', cursor });
    rows.push(...answer.body.data);
    cursor = answer.body.pagination.nextCursor ?? undefined;
    if (!cursor) break;
  }
  return rows;
}

function progressSection(session: ConsoleSession, job: Job, errors: Awaited<ReturnType<typeof errorRows>>, dryRun: boolean): string {
  const path = `/console/imports/${job.id}`;
  const self = dryRun ? `${path}?dryRun=true` : path;
  const live = running(job) ? html` hx-get="${self}" hx-trigger="every 1s" hx-select="#progress" hx-swap="outerHTML"` : '';
  const counters = facts([
    ['Status', { html: html`<strong data-status="${job.status}">${job.status}</strong>` }],
    ['Processed', `${job.processed} of ${job.total ?? '?'}`],
    // a CSV that was not UTF-8 was read as Windows-1252: the merchant sees it (docs/csv-import.md, "Encodings")
    ['Encoding', job.encoding],
    [dryRun ? 'Would create' : 'Created', job.created],
    [dryRun ? 'Would update' : 'Updated', job.updated],
    [dryRun ? 'Would refuse' : 'Refused', job.failed],
    [dryRun ? 'Would change or make up' : 'Changed or made up', job.warnings],
  ]);
  const cancel = running(job)
    ? html`<form method="post" action="${`${path}/cancel`}">!${csrfField(session)}<button type="submit" class="secondary">Cancel</button></form>`
    : '';
  const download = job.failed > 0 && !running(job) ? html`<p><a href="${`${path}/failed-rows`}" download>Download failed rows</a></p>` : '';
  // warnings are values the job changed or made up in lines it applied: the level says which a row is
  const rows = errors.map((error) => [error.line, error.column, error.level, error.code, error.message]);
  return html`<section id="progress" aria-live="polite"!${live}>!${counters}!${cancel}!${download}
<h2>Errors and warnings</h2>!${table('Errors and warnings', ['Line', 'Column', 'Level', 'Code', 'Message'], rows)}</section>`;
}

export function registerImportsScreen(router: ConsoleRouter, { api }: ScreenDeps): void {
  router.page('/imports', { querystring: JobsQuery }, async ({ query, session }) => {
    const filters = query as Record<string, string | undefined>;
    const jobs = await api.get(session, '/jobs', { ...filters, limit: JOBS_PAGE });
    const rows = jobs.body.data.map((job: Job) => [
      link(`/console/imports/${job.id}`, when(job.createdAt)),
      job.resource,
      job.status,
      job.created,
      job.updated,
      job.failed,
    ]);
    return {
      title: 'Imports',
      body: html`<h2>Import a file</h2>!${uploadForm(session)}
<h2>Recent imports</h2>!${filterForm('/console/imports', [
        { name: 'search', label: 'Search', value: query.search },
        { name: 'status', label: 'Status', value: query.status, options: [...JOB_STATUSES] },
        { name: 'resource', label: 'Resource of the job', value: query.resource, options: [...RESOURCES] },
      ])}
!${table('Recent imports', ['Started', 'Resource', 'Status', 'Created', 'Updated', 'Refused'], rows)}
!${nextPageLink('/console/imports', filters, jobs.body.pagination?.nextCursor)}`,
    };
  });

  router.upload('/imports', { querystring: UploadQuery }, async ({ request, query, session }) => {
    const file = await request.file();
    const resource = (file?.fields.resource as { value?: unknown } | undefined)?.value;
    if (!file || typeof resource !== 'string' || !(RESOURCES as readonly string[]).includes(resource)) {
      file?.file.resume();
      throw invalidField('resource', `choose the resource (${RESOURCES.join(', ')}) before the file`, 'body');
    }
    const dryRun = query.mode === 'dry-run' ? '&dryRun=true' : '';
    const started = await api.upload(
      session,
      `/imports?resource=${resource}${dryRun}`,
      contentTypeOf(file.filename, file.mimetype),
      file.file,
    );
    return { redirect: `/console/imports/${started.body.data.id}${dryRun ? '?dryRun=true' : ''}` };
  });

  router.page('/imports/:id', { params: IdParams, querystring: JobQuery }, async ({ params, query, session }) => {
    const job: Job = (await api.get(session, `/jobs/${params.id}`)).body.data;
    const dryRun = query.dryRun === 'true';
    const errors = running(job) ? [] : await errorRows(api, session, job.id);
    return {
      title: `${dryRun ? 'Dry run' : 'Import'} of ${job.resource}`,
      nav: 'Imports',
      body: html`<p>!${link('/console/imports', 'Back to imports').html}</p>!${progressSection(session, job, errors, dryRun)}`,
    };
  });

  router.action('/imports/:id/cancel', { params: IdParams }, async ({ params, session }) => {
    await api.send(session, 'POST', `/jobs/${params.id}/cancel`);
    return { redirect: `/console/imports/${params.id}` };
  });

  router.download('/imports/:id/failed-rows', { params: IdParams }, ({ params, session }) =>
    api.download(session, `/jobs/${params.id}/failed-rows`),
  );
}
