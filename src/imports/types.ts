import type { Tx } from '../db/index.js';

/** What one import line did to its record: a line is an upsert by the resource's natural key. */
export type ImportLineOutcome = 'created' | 'updated';

/**
 * Applies one NDJSON line of an import inside the batch's transaction (under a savepoint of its own).
 * `line` is the parsed JSON value, not yet validated: the handler validates it as the POST body would and
 * throws the API's AppError (same code and details as the API) for a bad line. It upserts by the resource's
 * natural key (matched → updated as PATCH would, else created as POST would) and appends the same events an
 * API write would.
 */
export type ImportLineHandler = (trx: Tx, storeId: string, line: unknown) => Promise<ImportLineOutcome>;
