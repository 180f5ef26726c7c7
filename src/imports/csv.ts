import { type Options, Parser } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { AppError, validationError } from '../errors.js';
import type { ImportEncoding } from '../jobs/index.js';
import { type CsvFormat, CsvHeader, type CsvLayout, type LayoutFile, openLayout, recogniseLayout } from '../platforms/index.js';
import { cellDecoder, parserEncodingOf, utf8Check } from './csv-encoding.js';

/**
 * CSV uploads (docs/csv-import.md): csv-parse reads the bytes (UTF-8, with or without a byte-order mark, or a
 * single-byte encoding: csv-encoding.ts; comma or semicolon; RFC 4180 quoting with newlines inside quoted cells). While a CSV upload arrives it is
 * read once here, chunk by chunk, to recognise its layout from the header row (or refuse it with a 400) and
 * to count the import lines it holds (the job's `total`); the job reads it again (csv-source.ts).
 */

/** What a CSV upload's job needs to read it again from any record: kept in the job's params. */
export interface CsvParams {
  layout: string;
  delimiter: ',' | ';';
  header: string[];
  /** how the bytes are read (csv-encoding.ts); a job stored before encodings were read is UTF-8 */
  encoding?: ImportEncoding;
}

export type CsvDelimiter = CsvParams['delimiter'];

/** A record and the bytes read through its end, counted from where the read began (a resume position). */
export interface ParsedRecord {
  record: string[];
  bytes: number;
}

/**
 * Bytes handed to csv-parse at a time. It parses what it is given at once, so the records of one piece are
 * alive together: their number, not the piece's bytes, is what costs memory (a 256 KB read of empty rows,
 * `,,`, is 87,000 records).
 */
const SLICE_BYTES = 16 * 1024;

/** Reads the records of a CSV byte stream, chunk by chunk, synchronously (src/imports/csv-source.ts, the upload's inspector). */
export interface CsvRecordReader {
  /** the records that end in `chunk` (read after what came before); throws csv-parse's error after the records before it */
  write(chunk: Buffer): Generator<ParsedRecord>;
  /** the last record, when the bytes end without a newline */
  end(): Generator<ParsedRecord>;
}

/** csv-parse's parser underneath its stream (`Parser.api`, what its `_transform` calls). */
interface CsvParseApi {
  parse(bytes: Buffer | undefined, end: boolean, push: (record: string[]) => void, close: () => void): Error | undefined;
  info: { bytes: number; records: number };
}

/**
 * The one way records are read: arrays of strings, never a cast, each with the position of its end. csv-parse
 * is called underneath its stream (docs/decisions.md, "CSV records without csv-parse's stream"): through the
 * stream, every record was queued with an `info` object of a dozen fields (built by spreading, a quarter of
 * the parse time) and, for a record whose length differs from the header's, an Error with a stack trace and
 * deep copies of the options made before `relax_column_count` lets it through (2 KB and ~5x the time per `,,`
 * row under a 50-column header). Here a record is pushed with its end and nothing else, and its count is
 * reset so that each record sets the length the next one is held to. Positions are bytes of the file: a
 * single-byte encoding is read as latin1 and its cells decoded after (csv-encoding.ts).
 */
export function csvRecordReader(
  delimiter: CsvDelimiter,
  fromStart: boolean,
  maxRecordBytes: number,
  encoding: ImportEncoding = 'utf-8',
): CsvRecordReader {
  const options: Options = {
    delimiter,
    encoding: parserEncodingOf(encoding),
    // a byte-order mark is UTF-8's (csv-parse would switch to reading UTF-8 on meeting one)
    bom: fromStart && encoding === 'utf-8',
    relax_column_count: true,
    // a stray quote inside an unquoted cell (5" screen) is kept as text, as spreadsheets write it
    relax_quotes: true,
    skip_empty_lines: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    // a quote never closed would otherwise make the rest of the file one cell
    max_record_size: maxRecordBytes,
  };
  const api = (new Parser(options) as unknown as { api: CsvParseApi }).api;
  function* read(bytes: Buffer | undefined, end: boolean): Generator<ParsedRecord> {
    const parsed: ParsedRecord[] = [];
    const push = (record: string[]) => {
      api.info.records = 0;
      parsed.push({ record, bytes: api.info.bytes });
    };
    const error = api.parse(bytes, end, push, () => undefined);
    yield* parsed;
    if (error) throw error;
  }
  return {
    *write(chunk) {
      for (let from = 0; from < chunk.length; from += SLICE_BYTES) yield* read(chunk.subarray(from, from + SLICE_BYTES), false);
    },
    end: () => read(undefined, true),
  };
}

const QUOTE = 0x22;
const NEWLINE = 0x0a;

/** The delimiter of a file from its first record: the one of `,` and `;` met more often outside quotes. */
export function detectDelimiter(start: Buffer): CsvDelimiter {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const byte of start) {
    if (byte === QUOTE) quoted = !quoted;
    else if (!quoted && byte === NEWLINE) break;
    else if (!quoted && byte === 0x2c) commas++;
    else if (!quoted && byte === 0x3b) semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

/** A CSV syntax error (an unclosed quote, a record over the limit) as the API's 400. */
export function csvSyntaxError(error: unknown, line: number): AppError {
  const reason = error instanceof Error ? error.message : String(error);
  return validationError([{ field: 'body', in: 'body', message: `record ${line}: ${reason}` }], 'The CSV file cannot be read');
}

/** The 400 for a header row no layout of the resource recognises: one detail per missing column. */
export function unknownHeader(resource: string, missing: { layout: CsvLayout; columns: string[] }[]): AppError {
  if (missing.length === 0) return validationError([{ field: 'format', in: 'query', message: `no CSV layout reads ${resource}` }]);
  const details = missing.flatMap(({ layout, columns }) =>
    columns.map((column) => ({ field: column, in: 'body' as const, message: `missing column (${layout.format} ${layout.resource})` })),
  );
  const named = missing.map(({ layout, columns }) => `${layout.format}: ${columns.join(', ')}`).join('; ');
  return validationError(details, `The header row is not a known ${resource} layout; missing columns: ${named}`);
}

/**
 * The 400 for a header row that names a column twice (compared as layouts compare them: trimmed, in any
 * case): one of the two would be read and the other dropped without a word. Empty names (a spreadsheet's
 * unnamed trailing columns) may repeat.
 */
function refuseRepeatedColumns(names: readonly string[]): void {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const name of names) {
    const key = name.trim().toLowerCase();
    if (key === '') continue;
    if (seen.has(key)) repeated.add(name.trim());
    seen.add(key);
  }
  if (repeated.size === 0) return;
  const details = [...repeated].map((column) => ({
    field: column,
    in: 'body' as const,
    message: 'names a column the header row already has',
  }));
  throw validationError(details, `The header row names a column more than once: ${[...repeated].join(', ')}`);
}

/** The header row's recognised layout, or the 400. */
export function layoutOf(names: string[], resource: string, format: CsvFormat | undefined): CsvLayout {
  refuseRepeatedColumns(names);
  const found = recogniseLayout(new CsvHeader(names), resource, format);
  if (!found.layout) throw unknownHeader(resource, found.missing);
  return found.layout;
}

/** The column "Download failed rows" adds (GET /jobs/{id}/failed-rows): the header's last, named so. */
export const ERROR_COLUMN = 'Error';

/**
 * A header row without a last column `Error`: a failed-rows file, fixed, imports as it is (its `Error` cells
 * would otherwise become customFields). The records keep the cell; the layouts read only the header's columns.
 */
export function withoutErrorColumn(names: string[]): string[] {
  return names.length > 1 && names[names.length - 1].trim().toLowerCase() === ERROR_COLUMN.toLowerCase() ? names.slice(0, -1) : names;
}

const DETECT_BYTES = 64 * 1024;

/**
 * The header row read again from the file's first bytes in the encoding the whole file turned out to have (the
 * inspector read it as UTF-8 before a later byte showed the file is not).
 */
function headerIn(prefix: Buffer, headerEnd: number, delimiter: CsvDelimiter, encoding: ImportEncoding): string[] {
  if (headerEnd > prefix.length) {
    throw validationError(
      [{ field: 'body', in: 'body', message: `the header row is longer than ${DETECT_BYTES} bytes` }],
      'The CSV file cannot be read',
    );
  }
  const bytes = prefix.subarray(prefix[0] === 0xef && prefix[1] === 0xbb && prefix[2] === 0xbf ? 3 : 0, headerEnd);
  const [names = []] = parseSync(bytes, { delimiter, encoding: parserEncodingOf(encoding), relax_quotes: true, to_line: 1 }) as string[][];
  return names.map(cellDecoder(encoding));
}

/**
 * Reads a CSV upload as it arrives (chunks given in order, synchronously): recognises the layout on the
 * header row (a 400 thrown from `add` stops the upload) and counts the import lines. `finish` gives the
 * job's params and its line count. Holds one product's records at a time, never the file. A file whose
 * `charset` is not named is read as UTF-8 and checked: not valid UTF-8, it is Windows-1252 (csv-encoding.ts),
 * its header row read again in it (records read before that are only counted).
 */
export function csvInspector(resource: string, format: CsvFormat | undefined, maxRecordBytes: number, charset?: ImportEncoding) {
  let start: Buffer[] = [];
  let startLength = 0;
  let records: CsvRecordReader | null = null;
  let delimiter: CsvDelimiter = ',';
  let params: CsvParams | null = null;
  let file: LayoutFile | null = null;
  let lines = 0;
  let count = 0;
  const readAs = charset ?? 'utf-8';
  const decode = cellDecoder(readAs);
  const utf8 = charset === undefined ? utf8Check() : null;
  const prefix = { bytes: Buffer.alloc(0), headerEnd: 0 };
  const take = (parsed: ParsedRecord) => {
    count++;
    if (!params) {
      const names = withoutErrorColumn(parsed.record.map(decode));
      const layout = layoutOf(names, resource, format);
      params = { layout: layout.name, delimiter, header: names };
      prefix.headerEnd = parsed.bytes;
      file = openLayout(layout, names);
      return;
    }
    lines += file?.reader.push(file.record(count, parsed.record.map(decode))).length ?? 0;
  };
  const read = (parsed: Iterable<ParsedRecord>) => {
    try {
      for (const record of parsed) take(record);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw csvSyntaxError(error, count + 1);
    }
  };
  const open = (): CsvRecordReader => {
    const head = Buffer.concat(start, startLength);
    prefix.bytes = head.subarray(0, DETECT_BYTES);
    delimiter = detectDelimiter(head);
    const opened = csvRecordReader(delimiter, true, maxRecordBytes, readAs);
    records = opened;
    start = [];
    read(opened.write(head));
    return opened;
  };
  return {
    add(chunk: Buffer) {
      utf8?.add(chunk);
      if (records) return read(records.write(chunk));
      start.push(chunk);
      startLength += chunk.length;
      if (startLength >= DETECT_BYTES || chunk.includes(NEWLINE)) open();
    },
    finish(): { lines: number; csv: CsvParams } {
      read((records ?? open()).end());
      if (!params) throw validationError([{ field: 'body', in: 'body', message: 'the file has no header row' }], 'The CSV file is empty');
      lines += (file as LayoutFile | null)?.reader.end().length ?? 0;
      const encoding = charset ?? (utf8?.end() ? 'utf-8' : 'windows-1252');
      const csv: CsvParams = { ...(params as CsvParams), encoding };
      if (encoding !== readAs) {
        csv.header = withoutErrorColumn(headerIn(prefix.bytes, prefix.headerEnd, delimiter, encoding));
        csv.layout = layoutOf(csv.header, resource, format).name;
      }
      return { lines, csv };
    },
  };
}
