import type { Tx } from '../db/index.js';
import { duplicateValue } from '../errors.js';
import type { ImportBatchResult } from '../shared/index.js';
import { suppliedSlug } from '../shared/index.js';
import { appendJobHistories, insertJobKeys, selectJobKeyHolder } from './dry-run.sql.js';
import { MAX_SOURCE_BYTES } from './failed-rows.js';

/**
 * `dryRun=true` (docs/imports.md, "Dry runs"): each batch runs exactly as a real one would, in its
 * transaction, and is then rolled back to a savepoint taken at its start (with the events it noted), so
 * nothing reaches the store while the job's counters, errors and position commit as usual.
 *
 * A rolled-back batch leaves no trace for the next one: a key created in batch 1 is not in the store when
 * batch 2 meets it again, nor is a customer's email. So the dry run keeps what it did in table `job_keys`
 * (migration 0041), written after the rollback with the batch's progress: the natural keys its lines
 * created and the unique values they claimed. A later line of a key created earlier counts as the update
 * it would be, and a line claiming a unique value another key holds gets the DUPLICATE_VALUE a real run
 * would give. And a later line of a key an earlier batch wrote must meet the record as that batch left it
 * (a WooCommerce product's variations, read as a second line of its handle, are valid only as an update): the
 * lines that wrote a key are kept too ('applied <key>', as they were read, with the collections they join), and
 * a batch meeting the key again first applies them again (rolled back with it). Being in the database, this
 * memory survives a job's hand-over to another store's turn, a crash and a restart.
 */

/** A line that wrote a key, as it was read: applied again before a later batch meets the key. */
export interface AppliedLine {
  /** the line's JSON text (NDJSON: as the file has it) */
  text: string;
  collections?: readonly (readonly string[])[];
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/**
 * An inventory line's key: its level, the item as the line names it (SKU, else handle and option values) at
 * the location (names compare case-insensitively), so a level an earlier batch created counts as updated.
 */
function levelKey(value: Record<string, unknown>): string | null {
  const location = text(value.location)?.trim().toLowerCase();
  const options = value.options && typeof value.options === 'object' ? JSON.stringify(value.options) : '{}';
  const item = text(value.sku)?.trim() ?? (text(value.productHandle) === null ? null : `${text(value.productHandle)?.trim()} ${options}`);
  return location && item ? `${item} @ ${location}` : null;
}

/**
 * Each resource's natural key (a field of the line, or made from it), and the other values unique in a store
 * (compared as the database does).
 */
const KEYS: Readonly<
  Record<string, { key: string | ((value: Record<string, unknown>) => string | null); slug: boolean; unique: readonly string[] }>
> = {
  products: { key: 'handle', slug: true, unique: [] },
  collections: { key: 'handle', slug: true, unique: [] },
  customers: { key: 'userName', slug: false, unique: ['email'] },
  orders: { key: 'customOrderId', slug: false, unique: [] },
  inventory: { key: levelKey, slug: false, unique: [] },
};

export class DryRunKeys {
  /** rows this batch adds to job_keys: key → holder */
  private pending = new Map<string, string>();
  /** the lines this batch wrote, per key (appended to 'applied <key>') */
  private applied = new Map<string, string[]>();

  constructor(
    private readonly resource: string,
    private readonly storeId: string,
    private readonly jobId: string,
  ) {}

  private keyOf(value: unknown): string | null {
    const spec = KEYS[this.resource];
    if (!spec || typeof value !== 'object' || value === null) return null;
    const fields = value as Record<string, unknown>;
    const raw = typeof spec.key === 'function' ? spec.key(fields) : text(fields[spec.key]);
    return raw === null ? null : spec.slug ? suppliedSlug(raw) : raw;
  }

  /** the holder of a key: this batch's, else an earlier batch's (job_keys), else undefined */
  private async holder(trx: Tx, key: string): Promise<string | undefined> {
    const pending = this.pending.get(key);
    if (pending !== undefined) return pending;
    return selectJobKeyHolder(trx, this.storeId, this.jobId, key);
  }

  /** A line's result as a real run would count it, given what earlier (rolled-back) batches did. */
  async judge(trx: Tx, value: unknown, result: ImportBatchResult): Promise<ImportBatchResult> {
    if (result !== 'created' && result !== 'updated' && result !== 'unchanged') return result;
    const key = this.keyOf(value);
    if (key === null) return result;
    for (const field of KEYS[this.resource]?.unique ?? []) {
      const unique = text((value as Record<string, unknown>)[field])?.toLowerCase();
      if (unique === undefined) continue;
      const holder = await this.holder(trx, `${field} ${unique}`);
      if (holder !== undefined && holder !== key) return duplicateValue(field);
      this.pending.set(`${field} ${unique}`, key);
    }
    if (result !== 'created') return result;
    const earlier = (await this.holder(trx, `created ${key}`)) !== undefined;
    this.pending.set(`created ${key}`, '');
    return earlier ? 'updated' : result;
  }

  /**
   * Before a batch: the lines of earlier batches that wrote a key one of `values` names, applied again in file
   * order through `apply` (in the batch's transaction, so rolled back with it).
   */
  async replay(trx: Tx, values: readonly unknown[], apply: (line: AppliedLine) => Promise<void>): Promise<void> {
    const met = new Set<string>();
    for (const value of values) {
      const key = this.keyOf(value);
      if (key === null || met.has(key)) continue;
      met.add(key);
      const history = await selectJobKeyHolder(trx, this.storeId, this.jobId, `applied ${key}`);
      for (const entry of history?.split('\n') ?? []) await apply(JSON.parse(entry) as AppliedLine);
    }
  }

  /** A line that wrote its key (as it was read, before its collections were joined), for `replay`. */
  remember(value: unknown, line: AppliedLine): void {
    const key = this.keyOf(value);
    const entry = JSON.stringify(line);
    // a line too large to keep is not applied again: a later batch meets its key as the store has it
    if (key === null || entry.length > MAX_SOURCE_BYTES) return;
    this.applied.set(key, [...(this.applied.get(key) ?? []), entry]);
  }

  /** Writes what this batch did (after its rollback, so it commits with the batch's progress). */
  async save(trx: Tx): Promise<void> {
    const rows = [...this.pending];
    const histories = [...this.applied].map(([key, entries]): [string, string] => [`applied ${key}`, entries.join('\n')]);
    this.forget();
    await insertJobKeys(trx, this.storeId, this.jobId, rows);
    await appendJobHistories(trx, this.storeId, this.jobId, histories);
  }

  /** A batch that did not commit leaves nothing to save. */
  forget(): void {
    this.pending = new Map();
    this.applied = new Map();
  }
}
