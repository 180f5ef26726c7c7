import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { Readable } from 'node:stream';
import { CliError } from './cli-error.js';
import type { Api } from './http.js';
import { startProgress } from './progress.js';

export const IMPORT_RESOURCES = ['products', 'collections', 'customers', 'orders', 'inventory'];

/** A job as GET /jobs/{id} returns it (the fields the CLI reads). */
export interface Job {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  total: number | null;
  processed: number;
  created: number;
  updated: number;
  failed: number;
  /** values the job changed or made up (rows of /errors with level "warning"); absent from an older server */
  warnings?: number;
  /** an inventory import: the locations it created (a dry run: would create); absent from an older server */
  createdLocations?: string[];
}

interface JobError {
  line: number;
  level?: 'error' | 'warning';
  /** a CSV record's offending column (its header), when there is one */
  column?: string | null;
  code: string;
  message: string;
  details: { field: string; message: string }[];
}

const FINAL = new Set(['succeeded', 'failed', 'cancelled']);
/** failed lines printed at the end; the rest are a GET away */
const ERRORS_SHOWN = 10;

/** What `--format` may name: the file's kind, or a platform's CSV layout (which makes it CSV). */
export const IMPORT_FORMATS = ['ndjson', 'csv', 'shopify', 'woocommerce'];
const LAYOUTS = new Set(['shopify', 'woocommerce']);

export interface ImportOptions {
  resource: string;
  file: string;
  /** one of IMPORT_FORMATS; null: from the file's extension (.csv is CSV, anything else NDJSON) */
  format: string | null;
  /** the server checks every line as a real run would and writes nothing */
  dryRun: boolean;
  /** between two reads of the job */
  pollMs?: number;
}

/**
 * The upload's content type and query: CSV (`text/csv`) for a `.csv` file or a format that names a CSV
 * layout, whose layout is sent as `format` (without one the server recognises it from the header row).
 */
export function uploadOf(options: ImportOptions): { contentType: string; query: string } {
  const format = options.format ?? (/\.csv$/i.test(options.file) ? 'csv' : 'ndjson');
  const params = new URLSearchParams({ resource: options.resource });
  if (LAYOUTS.has(format)) params.set('format', format);
  if (options.dryRun) params.set('dryRun', 'true');
  return { contentType: format === 'ndjson' ? 'application/x-ndjson' : 'text/csv', query: params.toString() };
}

/** POST /imports?resource=R with the file streamed as the body: the job it started. */
async function upload(api: Api, options: ImportOptions): Promise<Job> {
  let size: number;
  try {
    size = statSync(options.file).size;
  } catch {
    throw new CliError(`cannot read ${options.file}`, 2);
  }
  const { contentType, query } = uploadOf(options);
  const response = await api.request('POST', `/imports?${query}`, {
    headers: { 'content-type': contentType, 'content-length': String(size) },
    body: () => Readable.toWeb(createReadStream(options.file)) as ReadableStream,
  });
  return ((await response.json()) as { data: Job }).data;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads the job until it ends, showing its progress. */
async function follow(api: Api, job: Job, pollMs: number): Promise<Job> {
  const progress = startProgress('processed');
  const show = (current: Job) =>
    progress.update({
      done: current.processed,
      total: current.total,
      extra: { created: current.created, updated: current.updated, failed: current.failed },
    });
  try {
    let current = job;
    show(current);
    while (!FINAL.has(current.status)) {
      await sleep(pollMs);
      current = await api.json<Job>('GET', `/jobs/${job.id}`);
      show(current);
    }
    return current;
  } finally {
    progress.stop();
  }
}

/**
 * Where the failed lines and the values changed or made up (warnings) are: the first few rows on stderr, and
 * the URL of all of them. A warning never fails the import (its line was imported), but it is never silent.
 */
async function reportErrors(api: Api, job: Job): Promise<void> {
  const errors = await api.json<JobError[]>('GET', `/jobs/${job.id}/errors?limit=${ERRORS_SHOWN}`);
  const warnings = job.warnings ?? 0;
  const counts = [job.failed > 0 ? `${job.failed} line(s) failed` : '', warnings > 0 ? `${warnings} value(s) changed or made up` : ''];
  process.stderr.write(`${counts.filter(Boolean).join(', ')}; the first ${errors.length}:\n`);
  for (const error of errors) {
    const detail = error.details[0];
    const where = error.column ? `line ${error.line} (${error.column})` : `line ${error.line}`;
    const level = error.level === 'warning' ? 'warning ' : '';
    process.stderr.write(`  ${where}: ${level}${error.code} ${detail ? `${detail.field} ${detail.message}` : error.message}\n`);
  }
  process.stderr.write(`all of them: ${api.base}/jobs/${job.id}/errors\n`);
}

/**
 * Ctrl-C while the job runs: the job is the server's and keeps running unless the user cancels it. On a
 * terminal the CLI asks; otherwise it leaves the job running. Either way it prints the job's id.
 */
function onInterrupt(api: Api, jobId: () => string | null): () => void {
  const handler = async () => {
    const id = jobId();
    if (!id) {
      process.stderr.write('\ninterrupted before the upload finished: no job was started\n');
      process.exit(130);
    }
    let cancel = false;
    if (process.stdin.isTTY) {
      const prompt = createInterface({ input: process.stdin, output: process.stderr });
      cancel = /^y/i.test(await prompt.question(`\ncancel job ${id} on the server too? [y/N] `));
      prompt.close();
    }
    if (cancel) await api.request('POST', `/jobs/${id}/cancel`).catch(() => undefined);
    process.stderr.write(
      cancel ? `job ${id} cancelled\n` : `\njob ${id} keeps running on the server; follow it with GET ${api.base}/jobs/${id}\n`,
    );
    process.exit(130);
  };
  process.once('SIGINT', handler);
  return () => process.removeListener('SIGINT', handler);
}

/**
 * `storefront import --resource R FILE`: upload, follow, summarize. The exit code is 0 only when the job
 * succeeded with no failed line.
 */
export async function runImport(api: Api, options: ImportOptions): Promise<{ summary: object; exitCode: number }> {
  let jobId: string | null = null;
  const release = onInterrupt(api, () => jobId);
  try {
    const started = Date.now();
    const job = await upload(api, options);
    jobId = job.id;
    const done = await follow(api, job, options.pollMs ?? 1000);
    if (done.failed > 0 || (done.warnings ?? 0) > 0) await reportErrors(api, done);
    const seconds = (Date.now() - started) / 1000;
    const { id, status, total, processed, created, updated, failed, warnings = 0 } = done;
    const counters = { total, processed, created, updated, failed, warnings };
    // an inventory import says which locations it made (or, dry, would make): a misspelt name shows here
    const locations = done.createdLocations?.length ? { createdLocations: done.createdLocations } : {};
    const summary = { job: id, status, ...(options.dryRun ? { dryRun: true } : {}), ...counters, ...locations, seconds };
    return { summary, exitCode: status === 'succeeded' && failed === 0 ? 0 : 1 };
  } finally {
    release();
  }
}
