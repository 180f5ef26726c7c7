import { sql } from 'kysely';
import type { Tx } from '../db/index.js';

/** What a dry run remembers across its batches (migration 0041, src/imports/dry-run.ts). */

/** The holder of a dry run's key (a created key's is ''), or undefined. */
export async function selectJobKeyHolder(trx: Tx, storeId: string, jobId: string, key: string): Promise<string | undefined> {
  const { rows } = await sql<{ holder: string }>`
    SELECT holder FROM job_keys WHERE store_id = ${storeId} AND job_id = ${jobId} AND key = ${key}`.execute(trx);
  return rows[0]?.holder;
}

/** Adds a batch's keys (key → holder); a key already kept stays as it is. */
export async function insertJobKeys(trx: Tx, storeId: string, jobId: string, rows: [string, string][]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    INSERT INTO job_keys (store_id, job_id, key, holder)
    SELECT ${storeId}, ${jobId}, k, h FROM unnest(${rows.map(([key]) => key)}::text[], ${rows.map(([, holder]) => holder)}::text[]) AS r(k, h)
    ON CONFLICT DO NOTHING`.execute(trx);
}

/** Appends a batch's entries to their keys' histories (one row per key, entries one per text line). */
export async function appendJobHistories(trx: Tx, storeId: string, jobId: string, rows: [string, string][]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    INSERT INTO job_keys (store_id, job_id, key, holder)
    SELECT ${storeId}, ${jobId}, k, h FROM unnest(${rows.map(([key]) => key)}::text[], ${rows.map(([, entries]) => entries)}::text[]) AS r(k, h)
    ON CONFLICT (store_id, job_id, key) DO UPDATE SET holder = job_keys.holder || E'\n' || excluded.holder`.execute(trx);
}
