import { type AppError, validationError } from '../errors.js';
import { JobFailure } from '../jobs/index.js';
import { layoutNamed, openLayout } from '../platforms/index.js';
import { type CsvParams, csvRecordReader, type ParsedRecord } from './csv.js';
import { cellDecoder, unreadableCell, unreadableMessage } from './csv-encoding.js';
import { MAX_SOURCE_BYTES } from './failed-rows.js';
import type { CsvLine } from './lines.js';

/**
 * Reads a CSV upload for its job from a resume position: `start` is a byte offset where a record begins
 * (0, or just past the last record of a committed batch's last line), `firstRecord` the number of the
 * record before it (1, the header row, at the start). The header and delimiter come from the job's params,
 * so a resumed job never reads the file's start again. Yields the layout's import lines with the byte
 * offset just past each one's last record, and its records' cells as the layout reads them (a failed line's
 * source, kept for "Download failed rows"). One group of records (a product's rows) is held at a time.
 * A layout whose reader keeps state across lines (`replaysOnResume`) is read from the start again: the
 * lines up to `skipThrough` (the resume point's record) go through the reader and are not yielded.
 */
export async function* readCsvLines(
  source: AsyncIterable<Buffer>,
  start: number,
  firstRecord: number,
  params: CsvParams,
  maxRecordBytes: number,
  skipThrough = 0,
): AsyncGenerator<CsvLine> {
  const layout = layoutNamed(params.layout);
  if (!layout) throw new JobFailure(`the CSV layout ${params.layout} is not known to this version`);
  const { reader, record: layoutRecord } = openLayout(layout, params.header);
  const encoding = params.encoding ?? 'utf-8';
  const parsedRecords = csvRecordReader(params.delimiter, start === 0, maxRecordBytes, encoding);
  const decode = cellDecoder(encoding);
  const unreadable = unreadableRecords(params);
  // where the record read last and the one before it end: a line `push` completes ends at one of them
  // (src/platforms/types.ts), so nothing here grows with the file
  const ends = { record: firstRecord, end: start, previousEnd: start };
  const cells = pendingCells(MAX_SOURCE_BYTES);
  let record = firstRecord;
  let headerSkipped = start !== 0;
  const made = function* (lines: ReturnType<typeof reader.push>) {
    for (const line of lines) {
      const end = line.lastLine >= ends.record ? ends.end : ends.previousEnd;
      const records = cells.take(line.line, line.lastLine);
      // a replayed line (before the resume point): read for the reader's state, not applied again
      if (line.lastLine <= skipThrough) continue;
      const bad = unreadable.take(line.line, line.lastLine);
      const read = bad?.error ?? line.error ?? { value: line.value, text: JSON.stringify(line.value) };
      const collections = line.collections;
      yield {
        ...(bad ? { at: bad.at } : {}),
        line: line.line,
        text: null,
        end,
        positionLine: line.lastLine,
        read,
        sources: line.sources,
        collections,
        ...(line.marketPrices ? { marketPrices: line.marketPrices } : {}),
        warnings: line.warnings,
        records,
      } satisfies CsvLine;
    }
  };
  function* take(parsed: ParsedRecord): Generator<CsvLine> {
    record++;
    if (!headerSkipped) {
      // the header row of a job read from the start: its names are the params' already
      headerSkipped = true;
      record = 1;
      return;
    }
    ends.previousEnd = ends.end;
    ends.end = start + parsed.bytes;
    ends.record = record;
    const decoded = parsed.record.map(decode);
    // the cells as the layout reads them (without a spreadsheet's apostrophe): a failed row is written back from them
    const read = layoutRecord(record, decoded);
    cells.add(record, read.cells);
    unreadable.add(record, decoded, encoding);
    yield* made(reader.push(read));
  }
  try {
    // the records of each chunk are read synchronously (no promise per record): a file of 10 M empty rows
    // costs the reads' parse time, not 10 M turns of the event loop
    for await (const chunk of source) for (const parsed of parsedRecords.write(chunk)) yield* take(parsed);
    for (const parsed of parsedRecords.end()) yield* take(parsed);
    yield* made(reader.end());
  } catch (error) {
    throw new JobFailure(`the CSV file cannot be read at record ${record + 1}: ${(error as Error).message}`);
  }
}

/**
 * The cells of the records read and not yet part of a finished line (a failed line's source), within
 * `budget` bytes (about their JSON): past it, what is pending is let go but the newest record (which may start
 * the next line), and a line that reaches back into what was let go has no source (null: too large to keep,
 * as failed-rows.ts would drop it anyway). So a product of 10 M rows holds no more than the budget.
 */
function pendingCells(budget: number) {
  const pending = new Map<number, { cells: readonly string[]; bytes: number }>();
  let bytes = 0;
  let lostThrough = 0;
  return {
    add(record: number, cells: readonly string[]) {
      const size = cells.reduce((sum, cell) => sum + cell.length + 3, 2);
      if (bytes + size > budget) {
        pending.clear();
        bytes = 0;
        lostThrough = record - 1;
      }
      pending.set(record, { cells, bytes: size });
      bytes += size;
    },
    /** the cells of records first..last, taken out; null when some of them were let go */
    take(first: number, last: number): (readonly string[])[] | null {
      const records: (readonly string[])[] = [];
      for (const [record, kept] of pending) {
        if (record > last) break;
        pending.delete(record);
        bytes -= kept.bytes;
        if (record >= first) records.push(kept.cells);
      }
      return first <= lostThrough ? null : records;
    },
  };
}

/**
 * The records holding a character that could not be read (csv-encoding.ts), until the line they are part of is
 * made: that line is their error, naming the first such cell, whatever the layout made of it.
 */
function unreadableRecords(params: CsvParams) {
  const found = new Map<number, { column: string | null; message: string }>();
  return {
    add(record: number, cells: readonly string[], encoding: NonNullable<CsvParams['encoding']>) {
      const index = unreadableCell(cells);
      if (index === -1) return;
      const column = params.header[index] ?? null;
      found.set(record, { column, message: `${column === null ? 'a cell' : `the cell of ${column}`} ${unreadableMessage(encoding)}` });
    },
    /** the first unreadable record of first..last as its line's error; every record through last let go */
    take(first: number, last: number) {
      let bad: { error: AppError; at: { line: number; column: string | null } } | null = null;
      for (const [record, cell] of found) {
        if (record > last) break;
        found.delete(record);
        if (bad || record < first) continue;
        const field = cell.column ?? 'body';
        bad = {
          error: validationError([{ field, in: 'body', message: cell.message }], `Record ${record}: ${cell.message}`),
          at: { line: record, column: cell.column },
        };
      }
      return bad;
    },
  };
}
