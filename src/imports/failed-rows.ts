import type { Db } from '../db/index.js';
import { invalidField } from '../errors.js';
import { getJob, selectErrorSources } from '../jobs/index.js';
import { csvRows, FORMULA_QUOTING, layoutHeader, layoutNamed, quotingOfLayout } from '../platforms/index.js';
import { type CsvParams, ERROR_COLUMN } from './csv.js';
import { type FileLine, isCsvLine } from './lines.js';

/**
 * "Download failed rows" (GET /jobs/{id}/failed-rows, the console's Imports screen): the lines of an import's
 * file that failed, as the file had them, read from their error rows (the upload itself is gone once the job
 * ends). A CSV job gives a CSV: the file's header row plus an `Error` column, then each failed line's records
 * with their cells as the layout read them and the error in the `Error` cell of the record it names, written
 * as the export writes cells (text a spreadsheet would run gets its apostrophe back: src/platforms/spreadsheet-quote.ts);
 * fixed, it imports as it is (the import drops a last `Error` column, csv.ts). An NDJSON job gives the failed
 * lines, unchanged.
 */

/** A failed line's source kept with its error row is at most this large (its JSON): 1,000 rows stay ≤ 64 MB. */
export const MAX_SOURCE_BYTES = 64 * 1024;

/** A CSV line's source: its records' cells, the first being record `first` of the file (the header row is 1). */
export interface CsvSource {
  first: number;
  records: readonly (readonly string[])[];
}

/** The line as the file had it (an NDJSON line's text, a CSV line's records); null when too large to keep. */
export function sourceOf(line: FileLine): string | CsvSource | null {
  const source = isCsvLine(line) ? line.records && { first: line.line, records: line.records } : line.text;
  if (source === null) return null;
  const size = Buffer.byteLength(typeof source === 'string' ? source : JSON.stringify(source));
  return size > MAX_SOURCE_BYTES ? null : source;
}

export interface FailedRows {
  contentType: 'text/csv' | 'application/x-ndjson';
  filename: string;
  /** the file's text, a page of error rows at a time */
  chunks: AsyncIterable<string>;
}

type ErrorRow = Awaited<ReturnType<typeof selectErrorSources>>[number];

const PAGE = 50;

/** The failed rows of an import job of the store (404 otherwise; the job's resource's read scope). */
export async function failedRows(db: Db, storeId: string, scopes: readonly string[], jobId: string): Promise<FailedRows> {
  const job = await getJob(db, storeId, scopes, jobId);
  if (job.type !== 'import') throw invalidField('id', 'is not an import job');
  const csv = job.params.csv as CsvParams | undefined;
  const rows = errorRows(db, storeId, jobId);
  if (!csv) return { contentType: 'application/x-ndjson', filename: `${jobId}-failed-rows.ndjson`, chunks: ndjsonText(rows) };
  return { contentType: 'text/csv', filename: `${jobId}-failed-rows.csv`, chunks: csvText(csv, rows) };
}

async function* errorRows(db: Db, storeId: string, jobId: string): AsyncGenerator<ErrorRow> {
  for (let after = 0; ; ) {
    const page = await selectErrorSources(db, storeId, jobId, after, PAGE);
    yield* page;
    if (page.length < PAGE) return;
    after = page[page.length - 1].line;
  }
}

async function* ndjsonText(rows: AsyncIterable<ErrorRow>): AsyncGenerator<string> {
  for await (const row of rows) if (typeof row.source === 'string') yield `${row.source}\n`;
}

async function* csvText(csv: CsvParams, rows: AsyncIterable<ErrorRow>): AsyncGenerator<string> {
  const layout = layoutNamed(csv.layout);
  const quoting = layout ? quotingOfLayout(layout) : FORMULA_QUOTING;
  const header = layout ? layoutHeader(layout, csv.header).names : csv.header;
  yield csvRows([[...header, ERROR_COLUMN]], quoting);
  for await (const row of rows) {
    const source = row.source as CsvSource | string;
    if (typeof source === 'string') continue;
    // the error goes on the record it names (the first one when it names none of them)
    const named = row.line >= source.first && row.line < source.first + source.records.length ? row.line - source.first : 0;
    const records = source.records.map((cells, index) => [
      // the file's cells under the header's columns (a short record padded; a failed-rows file's old Error cell left out)
      ...header.map((_, column) => cells[column] ?? ''),
      index === named ? errorText(row) : '',
    ]);
    yield csvRows(records, quoting);
  }
}

/** What the `Error` cell says: the column, the message and each detail. */
export function errorText(row: Pick<ErrorRow, 'code' | 'message' | 'details' | 'column_name'>): string {
  const details = (row.details as { field?: string; message?: string }[])
    .map((detail) => (detail.field ? `${detail.field}: ${detail.message}` : detail.message))
    .filter(Boolean);
  const head = `${row.column_name ? `${row.column_name}: ` : ''}${row.message} (${row.code})`;
  return details.length ? `${head}; ${details.join('; ')}` : head;
}
