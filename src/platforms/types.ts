import type { AppError } from '../errors.js';
import type { SpreadsheetQuoting } from './spreadsheet-quote.js';

/**
 * The interface of a platform's CSV layout (src/platforms/README.md). A layout recognises a header row and
 * turns consecutive CSV records into import lines: the same values an NDJSON import line holds
 * (docs/imports.md), which then go through the resource's import handler like any NDJSON line.
 */

/** The platforms a CSV upload may name with `format=`. */
export const CSV_FORMATS = ['shopify', 'woocommerce'] as const;
export type CsvFormat = (typeof CSV_FORMATS)[number];

/** The resources a CSV upload may be (`resource=`). */
export type CsvResource = 'products' | 'customers' | 'orders' | 'inventory';

/** One CSV record: its number in the file (the header row is 1) and its cells as the file has them. */
export interface CsvRecord {
  line: number;
  cells: readonly string[];
}

/** Where a value of an import line came from: the record and the header of its cell (as written in the file). */
export interface CellSource {
  line: number;
  column: string;
}

/** The codes of a warning (CONTRACT §10.4): a value the import changed, made up, or cut to fit. */
export type WarningCode = 'VALUE_CHANGED' | 'VALUE_GENERATED' | 'VALUE_TRIMMED';

/**
 * A value of the file the line does not keep as it is, said by the layout that changed or made it (so a dry
 * run, which reads the file through the same layout, reports exactly what the real run does). The job writes
 * it as a row of GET /jobs/{id}/errors with level "warning" when the line is applied.
 */
export interface LineWarning {
  code: WarningCode;
  /** the record and the column of the cell (the record the value belongs to when the file had no cell) */
  line: number;
  column: string | null;
  /** the field of the line, as an error detail names it: `handle`, `variants[2].sku` */
  field: string;
  message: string;
}

/**
 * One import line made by a layout from one or more consecutive records.
 * - `value`: the line (the body the resource's POST takes, with its natural key); absent when `error` is set.
 * - `error`: the layout itself refused the records (e.g. a variation row whose parent is unknown).
 * - `sources`: for each field path of `value` ("title", "variants[2].price", "images[0]") the cell it came
 *   from, so a job error names the record and the column; the first record is used for a path not found
 *   (or its nearest parent path).
 * - `lastLine`: the last record the line consumed (the job resumes after it).
 */
export interface LayoutLine {
  line: number;
  lastLine: number;
  value?: Record<string, unknown>;
  error?: AppError;
  sources: ReadonlyMap<string, CellSource>;
  /**
   * manual collections the line's record joins, each a path of titles from the root (WooCommerce's
   * `Clothing > Tshirts`): created once (found again by handle, the slug of the path) with their hierarchy,
   * and the ids of the last ones set as the line's `selectedCollections` before it is applied
   */
  collections?: readonly (readonly string[])[];
  /** what the line changed or made up (lines.ts `LineBuilder.warn`) */
  warnings?: readonly LineWarning[];
  /** prices per market (Shopify's `Price / <Market>` columns): set in the market's price list once the line is applied */
  marketPrices?: readonly MarketPrice[];
}

/** A cell of a market price column, as the file has it, and where it is. */
export interface MarketCell {
  text: string;
  line: number;
  column: string;
}

/**
 * One item's prices in one market (the price list named after it): the item is the line's simple product
 * (`sku: null`) or its variant of that SKU.
 */
export interface MarketPrice {
  market: string;
  sku: string | null;
  price: MarketCell;
  compareAt: MarketCell | null;
}

/** Turns the records of one file, in order, into import lines. One reader per job run (it keeps state). */
export interface LayoutReader {
  /**
   * takes the next record; returns the lines it completed (usually the previous group of records). A line
   * returned ends at this record or at the one just before it (the job's resume position is taken from
   * the two last records read, csv-source.ts), and holds a bounded number of records (lines.ts, groupingReader)
   */
  push(record: CsvRecord): LayoutLine[];
  /** the file has ended: the lines still open */
  end(): LayoutLine[];
}

/**
 * A platform's layout of one resource. To add one: write a file exporting a `CsvLayout` and list it in
 * `CSV_LAYOUTS` (src/platforms/layouts.ts). Recognition tries the layouts of the upload's resource in that
 * order (or only those of its `format=`): the first whose `missingColumns` is empty reads the file.
 */
export interface CsvLayout {
  /** a short name for logs and the job's params: "shopify-products" */
  name: string;
  format: CsvFormat;
  resource: CsvResource;
  /** the columns this header row lacks to be this layout ([] = recognised); compared case-insensitively */
  missingColumns(header: CsvHeader): string[];
  /** a reader of the file's records after the header row */
  open(header: CsvHeader): LayoutReader;
  /**
   * the reader keeps state across lines (WooCommerce's variations name a parent read earlier): a resumed
   * job reads the file from its start again, lines before its resume point going through the reader
   * unapplied
   */
  replaysOnResume?: boolean;
  /**
   * the apostrophe its files put before a cell a spreadsheet must read as text (spreadsheet-quote.ts);
   * default: before formula characters only
   */
  quoting?: SpreadsheetQuoting;
}

const normal = (name: string) => name.trim().toLowerCase();

/** The header row of a file: cells looked up by column name, case-insensitively (the first column of a name wins). */
export class CsvHeader {
  private readonly positions = new Map<string, number>();

  constructor(readonly names: readonly string[]) {
    names.forEach((name, index) => {
      if (!this.positions.has(normal(name))) this.positions.set(normal(name), index);
    });
  }

  /** the position of a column, or undefined */
  index(name: string): number | undefined {
    return this.positions.get(normal(name));
  }

  has(name: string): boolean {
    return this.positions.has(normal(name));
  }

  /** the first of `names` the file has, as written in the file */
  find(...names: string[]): string | undefined {
    for (const name of names) {
      const index = this.index(name);
      if (index !== undefined) return this.names[index];
    }
    return undefined;
  }

  /** a record's cell under a column, trimmed; '' when the file has no such column or the record is short */
  cell(record: CsvRecord, name: string | undefined): string {
    return this.raw(record, name).trim();
  }

  /** a record's cell as written (a description keeps its spaces) */
  raw(record: CsvRecord, name: string | undefined): string {
    const index = name === undefined ? undefined : this.index(name);
    return index === undefined ? '' : (record.cells[index] ?? '');
  }
}
