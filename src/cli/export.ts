import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CliError } from './cli-error.js';
import type { Api } from './http.js';
import { startProgress } from './progress.js';

export const EXPORT_RESOURCES = ['products', 'collections', 'attributes', 'attributeSets', 'customers', 'orders', 'inventory'];
/** `ndjson` (the default) or a platform's CSV layout, which only these resources have. */
export const EXPORT_FORMATS = ['ndjson', 'shopify'];
const CSV_RESOURCES = ['products', 'customers', 'orders', 'inventory'];

export interface ExportOptions {
  resource: string;
  /** one of EXPORT_FORMATS; null is NDJSON */
  format: string | null;
  /** a file (written as FILE.partial, renamed when complete), or stdout */
  out: string | null;
  updatedSince: string | null;
}

/** Counts the lines going through, for the progress. */
function lineCounter(onLines: (count: number) => void) {
  let lines = 0;
  return async function* count(source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
      onLines(lines);
      yield chunk;
    }
  };
}

const QUOTE = 34;
const NEWLINE = 10;

/**
 * Counts the CSV records going through after the header row: a newline ends a record only outside quotes
 * (a description holds newlines inside its quoted cell; an escaped quote `""` flips the state twice).
 */
export function csvRecordCounter(onRecords: (count: number) => void) {
  let rows = 0;
  let quoted = false;
  return async function* count(source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      for (const byte of chunk) {
        if (byte === QUOTE) quoted = !quoted;
        else if (byte === NEWLINE && !quoted) rows++;
      }
      onRecords(Math.max(rows - 1, 0));
      yield chunk;
    }
  };
}

export interface ExportSummary {
  resource: string;
  /** present for a CSV layout */
  format?: string;
  /** NDJSON lines (records), or CSV rows after the header */
  exported: number;
  out: string | null;
}

/**
 * `storefront export --resource R [--format F] [--out FILE] [--updated-since T]`: GET /exports/R streamed to
 * the file or stdout, progress on stderr. A cut stream (the server failed mid-way) is an error, and leaves
 * no FILE. A CSV layout counts rows: a product is a row per variant and per further image, so the records
 * the server counts (X-Total-Count) are not the rows, and the progress has no total.
 */
export async function runExport(api: Api, options: ExportOptions): Promise<ExportSummary> {
  const csv = options.format !== null && options.format !== 'ndjson';
  if (csv && !CSV_RESOURCES.includes(options.resource)) {
    throw new CliError(`--format ${options.format} exports ${CSV_RESOURCES.join(', ')} only`, 2);
  }
  const params = new URLSearchParams();
  if (csv) params.set('format', options.format as string);
  if (options.updatedSince) params.set('updatedSince', options.updatedSince);
  const query = params.size > 0 ? `?${params}` : '';
  const response = await api.request('GET', `/exports/${options.resource}${query}`);
  const total = Number(response.headers.get('x-total-count') ?? Number.NaN);
  const progress = startProgress(csv ? 'rows' : 'exported');
  let exported = 0;
  const onCount = (count: number) => {
    exported = count;
    progress.update({ done: count, total: !csv && Number.isFinite(total) ? total : null });
  };
  const counter = csv ? csvRecordCounter(onCount) : lineCounter(onCount);
  const partial = options.out ? `${options.out}.partial` : null;
  const target = partial ? createWriteStream(partial) : stdoutWithoutClosing();
  try {
    await pipeline(Readable.fromWeb(response.body as never), counter, target);
  } catch (error) {
    if (partial) rmSync(partial, { force: true });
    throw new CliError(`export cut after ${exported} lines: ${(error as Error).message}`);
  } finally {
    progress.stop();
  }
  if (partial && options.out) renameSync(partial, options.out);
  return { resource: options.resource, ...(csv ? { format: options.format as string } : {}), exported, out: options.out };
}

/** stdout as a pipeline's end, left open (the summary and the process's own end come after). */
function stdoutWithoutClosing(): Writable {
  return new Writable({
    write(chunk, _encoding, callback) {
      if (process.stdout.write(chunk)) callback();
      else process.stdout.once('drain', () => callback());
    },
  });
}
