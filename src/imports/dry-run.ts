import type { Tx } from '../db/index.js';
import { duplicateValue } from '../errors.js';
import type { ImportBatchResult } from '../shared/index.js';
import { suppliedSlug } from '../shared/index.js';
import { insertJobKeys, selectJobKeyHolder } from './dry-run.sql.js';

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
 * would give. (Such a later line is checked as a create against the store, where a real run would update:
 * a line valid only as an update, e.g. one without a title, is reported as the create would be.) Being in
 * the database, this memory survives a job's hand-over to another store's turn, a crash and a restart.
 */

/** Each resource's natural key, and the other values unique in a store (compared as the database does). */
const KEYS: Readonly<Record<string, { key: string; slug: boolean; unique: readonly string[] }>> = {
  products: { key: 'handle', slug: true, unique: [] },
  collections: { key: 'handle', slug: true, unique: [] },
  customers: { key: 'userName', slug: false, unique: ['email'] },
  orders: { key: 'customOrderId', slug: false, unique: [] },
};

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

export class DryRunKeys {
  /** rows this batch adds to job_keys: key → holder */
  private pending = new Map<string, string>();

  constructor(
    private readonly resource: string,
    private readonly storeId: string,
    private readonly jobId: string,
  ) {}

  private keyOf(value: unknown): string | null {
    const spec = KEYS[this.resource];
    const raw = spec && typeof value === 'object' && value !== null ? text((value as Record<string, unknown>)[spec.key]) : null;
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

  /** Writes what this batch did (after its rollback, so it commits with the batch's progress). */
  async save(trx: Tx): Promise<void> {
    const rows = [...this.pending];
    this.pending = new Map();
    await insertJobKeys(trx, this.storeId, this.jobId, rows);
  }

  /** A batch that did not commit leaves nothing to save. */
  forget(): void {
    this.pending = new Map();
  }
}
