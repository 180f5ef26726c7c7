import { sql } from 'kysely';
import type { Db, Tx } from '../db/index.js';
import { deleteStoreByStore } from '../shared/index.js';
import type { KeyClaim } from './keys.js';
import { lockIdOf } from './keys.js';

/** A recorded outcome, as replayed. */
export interface RecordedOutcome {
  fingerprint: string;
  method: string;
  path: string;
  status: number;
  body: string;
  etag: string | null;
}

/** The live (unexpired) record of a store's key, if any. */
export async function findRecord(db: Db, storeId: string, key: string): Promise<RecordedOutcome | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'request_method as method', 'request_path as path', 'status', 'body', 'etag'])
    .where('store_id', '=', storeId)
    .where('key', '=', key)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
}

/**
 * Takes the key's turn for this transaction, without waiting: false when another request holds it.
 * Released at commit or rollback, so a crashed request never leaves a key stuck.
 */
export async function tryLockKey(trx: Tx, storeId: string, key: string): Promise<boolean> {
  const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(${lockIdOf(storeId, key)}::bigint) AS locked`.execute(
    trx,
  );
  return rows[0]?.locked === true;
}

/** Records the outcome; an expired record of the same key is replaced (the caller holds the key's lock). */
export async function saveRecord(
  trx: Tx,
  storeId: string,
  claim: KeyClaim,
  outcome: { status: number; body: string; etag: string | null },
  ttlSeconds: number,
): Promise<void> {
  const values = {
    fingerprint: claim.fingerprint,
    request_method: claim.method,
    request_path: claim.path,
    status: outcome.status,
    body: outcome.body,
    etag: outcome.etag,
    created_at: sql<Date>`now()`,
    expires_at: sql<Date>`now() + make_interval(secs => ${ttlSeconds})`,
  };
  await trx
    .insertInto('idempotency_keys')
    .values({ store_id: storeId, key: claim.key, ...values })
    .onConflict((conflict) => conflict.columns(['store_id', 'key']).doUpdateSet(values))
    .execute();
}

/**
 * Deletes up to `batch` expired records, read across stores without a lock and deleted store by store.
 * Rows another process is deleting (or a request is renewing) are skipped, so any number of processes may
 * purge at once.
 */
export async function purgeExpiredBatch(db: Db, batch: number): Promise<number> {
  const { rows } = await sql<{ store_id: string; key: string }>`
    SELECT store_id, key FROM idempotency_keys WHERE expires_at <= now() ORDER BY expires_at LIMIT ${batch}`.execute(db);
  return deleteStoreByStore(rows, async (storeId, expired) => {
    const result = await sql`
      DELETE FROM idempotency_keys WHERE store_id = ${storeId} AND key IN (
        SELECT key FROM idempotency_keys
        WHERE store_id = ${storeId} AND key = ANY (${expired.map((row) => row.key)}::text[]) AND expires_at <= now()
        FOR UPDATE SKIP LOCKED
      ) AND expires_at <= now()`.execute(db);
    return Number(result.numAffectedRows ?? 0n);
  });
}
