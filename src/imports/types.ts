import type { Tx } from '../db/index.js';
import type { AppError } from '../errors.js';

/** What one import line did to its record: a line is an upsert by the resource's natural key. */
export type ImportLineOutcome = 'created' | 'updated';

/**
 * Applies one NDJSON line of an import inside the batch's transaction (under a savepoint of its own).
 * `line` is the parsed JSON value, not yet validated: the handler validates it as the POST body would and
 * throws the API's AppError (same code and details as the API) for a bad line. It upserts by the resource's
 * natural key (matched → updated as PATCH would, else created as POST would) and appends the same events an
 * API write would. `text` is the line as it is in the file.
 */
export type ImportLineHandler = (trx: Tx, storeId: string, line: unknown, text: string) => Promise<ImportLineOutcome>;

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
export type ImportBatchApplier = (trx: Tx, storeId: string, lines: readonly ImportBatchLine[]) => Promise<ImportBatchResult[]>;

/** A resource's import: its per-line handler, and optionally a batch applier in front of it. */
export interface ImportHandler {
  line: ImportLineHandler;
  batch?: ImportBatchApplier;
}
