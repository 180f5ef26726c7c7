import type { AppError } from '../errors.js';
import type { CellSource, LineWarning, MarketPrice } from '../platforms/index.js';

/** One line of an import file: its number (from 1, blank lines counted) and where the next line starts. */
export interface FileLine {
  line: number;
  /** the line's text without its newline; null when it was longer than the limit (not kept in memory) */
  text: string | null;
  /** bytes into the file just past this line's newline: a resume position */
  end: number;
}

const NEWLINE = 0x0a;

/**
 * Reads an upload's lines from its bytes starting at `start` (a line boundary: where a committed batch
 * ended), holding one line at a time. A line over `maxLineBytes` comes back with `text: null`, its bytes skipped.
 */
export async function* readLines(
  source: AsyncIterable<Buffer>,
  start: number,
  firstLine: number,
  maxLineBytes: number,
): AsyncGenerator<FileLine> {
  let line = firstLine;
  let position = start;
  let parts: Buffer[] = [];
  let length = 0;
  let overLong = false;
  const take = (end: number): FileLine => {
    line++;
    const text = overLong ? null : Buffer.concat(parts, length).toString('utf8');
    parts = [];
    length = 0;
    overLong = false;
    return { line, text, end };
  };
  for await (const chunk of source) {
    let from = 0;
    while (from < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, from);
      const until = newline === -1 ? chunk.length : newline;
      if (!overLong) {
        if (length + (until - from) > maxLineBytes) {
          overLong = true;
          parts = [];
        } else parts.push(chunk.subarray(from, until));
        length += until - from;
      }
      if (newline === -1) break;
      yield take(position + newline + 1);
      from = newline + 1;
    }
    position += chunk.length;
  }
  // a last line without a newline
  if (length > 0 || overLong) yield take(position);
}

/**
 * A line of a CSV upload, made by its platform layout from one or more records (csv-source.ts): `line` is
 * its first record (the header row is 1), `positionLine` its last one, where the job resumes after it;
 * `read` the value (with its JSON text, which the product import's digest sees) or the layout's error;
 * `sources` the cell of each field, so an error names the record and the column.
 */
export interface CsvLine extends FileLine {
  positionLine: number;
  read: { value: unknown; text: string } | AppError;
  sources: ReadonlyMap<string, CellSource>;
  /** manual collections to join, by title path (src/platforms/types.ts `LayoutLine`) */
  collections?: readonly (readonly string[])[];
  /** prices per market, set in the markets' price lists once the line is applied (market-prices.ts) */
  marketPrices?: readonly MarketPrice[];
  /** the values the layout changed or made up: warning rows when the line is applied */
  warnings?: readonly LineWarning[];
  /**
   * the cells of each record from `line` to `positionLine`, as the file has them (a failed line's source);
   * null when they were too large to keep (csv-source.ts)
   */
  records: readonly (readonly string[])[] | null;
  /** the cell a read error is about when the layout's sources cannot say (a character that could not be read) */
  at?: { line: number; column: string | null };
}

export const isCsvLine = (line: FileLine): line is CsvLine => 'positionLine' in line;
