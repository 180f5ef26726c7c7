import { isDeepStrictEqual } from 'node:util';
import type { Tx } from '../db/index.js';
import type { AppError } from '../errors.js';
import type { AfterWork } from './after-work.js';
import type { Handling } from './input-shape.js';

/**
 * The contract between the import engine (src/imports: the job, CSV layouts) and the resources that apply
 * import lines (each folder's `*.import.ts`; the bench seeder applies product lines too), and the helpers
 * those share. An NDJSON line is the body POST would take, upserted by the resource's key. Kept apart from
 * the HTTP layer: the import engine calls the resources' line handlers inside its own batch transaction.
 */

/** What an import ignores in every line: the record's id and the timestamps GET shows (the service sets them). */
export const IGNORED_IN_LINES = ['id', 'createdAt', 'updatedAt'] as const;

/**
 * The line without the top-level properties an import ignores, so a record exactly as GET returns it is a
 * valid line. Anything but a plain object is returned as it is (the body's schema then refuses it).
 */
export function withoutIgnored(line: unknown, ignored: readonly string[] = IGNORED_IN_LINES): unknown {
  if (line === null || typeof line !== 'object' || Array.isArray(line)) return line;
  const kept = { ...(line as Record<string, unknown>) };
  for (const key of ignored) delete kept[key];
  return kept;
}

/**
 * Whether setting `changes` (the validated fields an update would set) on `current` (the record as GET
 * returns it) would leave every field as it is: each supplied value deep-equals the shown one. Strict on
 * purpose: a value the service would normalize (a title with spaces around it) counts as a change, so
 * "unchanged" is never claimed for a line that would change something.
 */
export function changesNothing(changes: object, current: object): boolean {
  const shown = current as Record<string, unknown>;
  return Object.entries(changes).every(
    ([key, value]) => value === undefined || (Object.hasOwn(shown, key) && isDeepStrictEqual(value, shown[key])),
  );
}

/** What one import line did to its record: a line is an upsert by the resource's natural key. */
export type ImportLineOutcome = 'created' | 'updated';

/** What the upload asked for that applies to every line of its job (stored in the job's params). */
export interface ImportLineOptions {
  /** unknown names in a line: refused (the line's error) or, with `Prefer: handling=lenient` on the upload, ignored */
  handling: Handling;
  /** the app's after-work: a line's events, the derived changes its work noted and stored documents go through it */
  afterWork: AfterWork;
  /**
   * told the name of a location the line created (an inventory line naming a location the store lacks): the
   * job lists them (`createdLocations`). Given per line by the import engine, which keeps the names only of
   * lines that were applied (a refused line's savepoint took its location with it).
   */
  locationCreated?: (name: string) => void;
  /** a product import's currency per market (`marketCurrencies`): the currency of a market's price list it creates */
  marketCurrencies?: Readonly<Record<string, string>>;
}

/**
 * Applies one NDJSON line of an import inside the batch's transaction (under a savepoint of its own).
 * `line` is the parsed JSON value, not yet validated: the handler validates it as the POST body would and
 * throws the API's AppError (same code and details as the API) for a bad line. It upserts by the resource's
 * natural key (matched → updated as PATCH would, else created as POST would) and appends the same events an
 * API write would. `text` is the line as it is in the file.
 */
export type ImportLineHandler = (
  trx: Tx,
  storeId: string,
  line: unknown,
  text: string,
  options: ImportLineOptions,
) => Promise<ImportLineOutcome>;

/** A parsed line given to a batch applier: its number in the file, its JSON value and its text. */
export interface ImportBatchLine {
  line: number;
  value: unknown;
  text: string;
}

/**
 * What a batch applier did with one line: written ('created' | 'updated'); `'unchanged'` (counted as
 * updated, nothing written: the line would change nothing); the line's error (an AppError, nothing
 * written); or null, not handled: the line then goes through the per-line handler, after the batch part.
 */
export type ImportBatchResult = ImportLineOutcome | 'unchanged' | AppError | null;

/**
 * Applies a whole batch of lines at once, in few statements, under one savepoint (src/imports/README.md).
 * Results are in the order of `lines`. The applier must give exactly what the per-line handler would,
 * line by line in file order: it writes a line only if no line before it in the batch is left to the
 * per-line handler (those run after it). If it throws, its savepoint is rolled back and every line of the
 * batch goes through the per-line handler.
 */
export type ImportBatchApplier = (
  trx: Tx,
  storeId: string,
  lines: readonly ImportBatchLine[],
  options: ImportLineOptions,
) => Promise<ImportBatchResult[]>;

/** A resource's import: its per-line handler, and optionally a batch applier in front of it. */
export interface ImportHandler {
  line: ImportLineHandler;
  batch?: ImportBatchApplier;
}
