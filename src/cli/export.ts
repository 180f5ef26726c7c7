import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Api, CliError } from './http.js';
import { startProgress } from './progress.js';

export const EXPORT_RESOURCES = ['products', 'collections', 'attributes', 'attributeSets', 'customers', 'orders'];

export interface ExportOptions {
  resource: string;
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

/**
 * `storefront export --resource R [--out FILE] [--updated-since T]`: GET /exports/R streamed to the file or
 * stdout, progress on stderr. A cut stream (the server failed mid-way) is an error, and leaves no FILE.
 */
export async function runExport(api: Api, options: ExportOptions): Promise<{ resource: string; exported: number; out: string | null }> {
  const query = options.updatedSince ? `?updatedSince=${encodeURIComponent(options.updatedSince)}` : '';
  const response = await api.request('GET', `/exports/${options.resource}${query}`);
  const total = Number(response.headers.get('x-total-count') ?? Number.NaN);
  const progress = startProgress('exported');
  let exported = 0;
  const counter = lineCounter((lines) => {
    exported = lines;
    progress.update({ done: lines, total: Number.isFinite(total) ? total : null });
  });
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
  return { resource: options.resource, exported, out: options.out };
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
