import { type AppError, validationError } from '../errors.js';
import { skuOf } from '../products/index.js';
import { suppliedSlug, toSlug } from '../shared/index.js';
import type { CellSource, CsvHeader, CsvRecord, LayoutLine, LayoutReader, LineWarning, WarningCode } from './types.js';

/**
 * What layouts share: building an import line value with the cell each field came from, reading numbers
 * and lists from cells, and grouping consecutive records into one line.
 */

/** An import line being built: `set` puts a value under a path and remembers its cell. */
export class LineBuilder {
  readonly value: Record<string, unknown> = {};
  readonly sources = new Map<string, CellSource>();
  readonly warnings: LineWarning[] = [];

  constructor(readonly first: CsvRecord) {}

  /** notes a value the line changed or made up, at the cell of `field` (or the line's first record) */
  warn(code: WarningCode, field: string, message: string, at?: { line: number; column: string | null }): void {
    const cell = at ?? this.sources.get(field);
    this.warnings.push({ code, field, message, line: cell?.line ?? this.first.line, column: cell?.column ?? null });
  }

  /** remembers the cell a path came from (the path of a nested value: "variants[2].price") */
  source(path: string, line: number, column: string | undefined): void {
    if (column !== undefined && !this.sources.has(path)) this.sources.set(path, { line, column });
  }

  /**
   * sets a top-level field when `value` is not undefined; its cell is remembered either way, so an error
   * about a missing value (an empty Title) names the cell that should have held it
   */
  set(field: string, value: unknown, line: number, column: string | undefined): void {
    this.source(field, line, column);
    if (value !== undefined) this.value[field] = value;
  }

  done(lastLine: number): LayoutLine {
    const line = { line: this.first.line, lastLine, value: this.value, sources: this.sources };
    return this.warnings.length > 0 ? { ...line, warnings: this.warnings } : line;
  }
}

/**
 * Sets `key` on a map a file builds (customFields, a variant's attributes) as an own key, whatever it is:
 * an assignment of `__proto__` would set the map's prototype and drop the cell without a word, where the
 * line's checks must see the key to refuse it (CONTRACT §10.2), naming its cell.
 */
export function putKey<T>(map: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Every key of `from` put on `into` (Object.assign would assign, see putKey). */
export function putKeys<T>(into: Record<string, T>, from: Record<string, T>): void {
  for (const [key, value] of Object.entries(from)) putKey(into, key, value);
}

/**
 * A handle the file gives, as the store keeps it (the slug rule of CONTRACT §6), set under `handle`: when
 * that is not the file's text, the line says so (VALUE_CHANGED with both values, or VALUE_TRIMMED when the
 * slug was cut to its 255 characters). A handle with nothing usable stays as given (the product's checks
 * refuse it).
 */
export function setHandle(line: LineBuilder, given: string, at: CellSource): void {
  const slug = suppliedSlug(given);
  line.set('handle', slug || given, at.line, at.column);
  if (slug === '' || slug === given) return;
  if (toSlug(given).length > slug.length)
    line.warn('VALUE_TRIMMED', 'handle', `The handle "${given}" was cut to ${slug.length} characters: "${slug}"`, at);
  else line.warn('VALUE_CHANGED', 'handle', `The handle "${given}" was made the slug "${slug}"`, at);
}

/**
 * A variant the file gives no SKU: the one the store would make (the line's handle and the values' slugs),
 * set in the line and, when `warn`, said (VALUE_GENERATED), so the job reports the SKU it made up.
 */
export function generateSku(
  line: LineBuilder,
  path: string,
  attributes: Record<string, string>,
  at: { line: number; column: string | null },
  warn = true,
): string | undefined {
  const handle = line.value.handle;
  if (typeof handle !== 'string') return undefined;
  const sku = skuOf(handle, attributes);
  line.source(`${path}sku`, at.line, at.column ?? undefined);
  if (warn) line.warn('VALUE_GENERATED', `${path}sku`, `The file gives no SKU: the variant's SKU was made "${sku}"`, at);
  return sku;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A cell as a number when it reads as one ("25", "3.65E+11", "0.5", "1,234.50", "12,50"), else the text itself, so the
 * resource's checks refuse it with the API's error naming the field (and the job names the cell).
 * '' → undefined (an empty cell sets nothing).
 */
export function numberCell(cell: string): number | string | undefined {
  if (cell === '') return undefined;
  // thousands separators (1,234.50), then a decimal comma (12,50 in a semicolon file)
  const text = cell.replace(/,(?=\d{3}(\D|$))/g, '').replace(/^([+-]?\d+),(\d+)$/, '$1.$2');
  return NUMBER.test(text) ? Number(text) : cell;
}

/** A list cell ("a, b, c") as its trimmed non-empty items; undefined when there are none. */
export function listCell(cell: string, separator = ','): string[] | undefined {
  const items = cell
    .split(separator)
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.length > 0 ? items : undefined;
}

/** Booleans as platforms write them (TRUE/FALSE, true/false, yes/no, 1/0); undefined for anything else. */
export function booleanCell(cell: string): boolean | undefined {
  const lower = cell.trim().toLowerCase();
  if (['true', 'yes', '1'].includes(lower)) return true;
  if (['false', 'no', '0'].includes(lower)) return false;
  return undefined;
}

/**
 * The products a file has given so far, by key (a handle): the rows of one product are one block (CONTRACT
 * §10.4), so a product's rows seen again after another product's are an error of those rows, and the first
 * block stands unchanged (without this the later rows replaced the product: 12 variants became 1). One
 * entry per product of the file.
 */
export class ProductBlocks {
  private readonly firstLines = new Map<string, number>();

  /**
   * null when `key` starts its first block (noted at `first.line`); else the error line of the repeated
   * block's records, naming `column` (the key's header).
   */
  repeated(key: string, first: CsvRecord, lastLine: number, column: string): LayoutLine | null {
    const earlier = this.firstLines.get(key);
    if (earlier === undefined || earlier === first.line) {
      this.firstLines.set(key, first.line);
      return null;
    }
    const message = `"${key}" was given on line ${earlier}, before another product's rows: a product's rows are one block, so these are not imported`;
    const error = validationError([{ field: 'handle', in: 'body', message }], `The rows of a product must be consecutive: ${message}`);
    return errorLine(first, lastLine, error, column);
  }
}

/** How many records one group (a product's rows) may have, and what the lines beyond it say. */
export interface GroupLimits {
  /** records held for one group at most; empty records after its first count too (they are not held) */
  maxRecords: number;
  /** the error of a group that has more records: the whole group is an error of its lines */
  tooMany: (records: number) => AppError;
  /** whether a record can start a group (a product's first row); default: every record can */
  opens?: (record: CsvRecord) => boolean;
  /** the error of the records before the first group (rows that belong to no product) */
  beforeFirst?: () => AppError;
  /** the header of the column these errors name (the group's key: `Handle`) */
  column?: string;
}

/** A line of a group's records that is an error (too many, or before the first group): it names the key's cell. */
function errorLine(first: CsvRecord, lastLine: number, error: AppError, column: string | undefined): LayoutLine {
  const sources = new Map<string, CellSource>();
  if (column !== undefined) for (const detail of error.details) sources.set(detail.field, { line: first.line, column });
  return { line: first.line, lastLine, error, sources };
}

/** The group being read: its first record, the records held, how many it has seen and its last record. */
interface OpenGroup {
  first: CsvRecord;
  held: CsvRecord[];
  count: number;
  lastLine: number;
  /** records that start no group, before the first one: counted, never held */
  orphans: boolean;
}

const overLimit = (group: OpenGroup, limits: GroupLimits) => group.orphans || group.count > limits.maxRecords;

/**
 * A reader that groups consecutive records: `continues(record, group)` says whether a record belongs to the
 * group being read; `build(records)` makes the group's import line. An empty record (commas only) belongs
 * to the open group and counts against its limit, and is never held. A group is held until the next group
 * starts (one product's rows), never past `limits.maxRecords`: beyond, its records are counted and let go,
 * and it becomes one error line, so memory stays bounded whatever the file (docs/csv-import.md, "Hostile
 * files"). Every line `push` completes ends at the record just before the one pushed.
 */
export function groupingReader(
  continues: (record: CsvRecord, group: readonly CsvRecord[]) => boolean,
  build: (records: readonly CsvRecord[]) => LayoutLine,
  limits: GroupLimits,
): LayoutReader {
  let group: OpenGroup | null = null;
  const close = (): LayoutLine[] => {
    if (!group) return [];
    const { first, held, lastLine } = group;
    const error = group.orphans ? limits.beforeFirst?.() : overLimit(group, limits) ? limits.tooMany(group.count) : undefined;
    const line = error ? errorLine(first, lastLine, error, limits.column) : { ...build(held), lastLine };
    group = null;
    return [line];
  };
  const joins = (open: OpenGroup, record: CsvRecord, empty: boolean) =>
    empty || (open.orphans ? !(limits.opens?.(record) ?? true) : continues(record, open.held));
  return {
    push(record) {
      const empty = emptyRecord(record);
      if (group && joins(group, record, empty)) {
        group.count++;
        group.lastLine = record.line;
        if (!empty && !overLimit(group, limits)) group.held.push(record);
        // past the limit the group is an error: what it held is let go (only its first record is kept)
        else if (overLimit(group, limits)) group.held.length = 1;
        return [];
      }
      const done = close();
      // an empty record before any group is nothing (a spreadsheet's blank rows)
      if (empty) return done;
      const orphans = limits.beforeFirst !== undefined && !(limits.opens?.(record) ?? true);
      group = { first: record, held: [record], count: 1, lastLine: record.line, orphans };
      return done;
    },
    end: close,
  };
}

/** Whether every cell of a record is empty (a record of commas only: skipped by the layouts). */
export const emptyRecord = (record: CsvRecord) => record.cells.every((cell) => cell.trim() === '');

/** The columns of `required` (each a list of alternative names) the header lacks, named by their first name. */
export function missingOf(header: CsvHeader, required: readonly (readonly string[])[]): string[] {
  return required.filter((names) => header.find(...names) === undefined).map((names) => names.join(' or '));
}
