import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { type Db, onPrimary } from '../db/index.js';

/**
 * Per-store limits on concurrent work that hold across every server process (at most 2 import uploads, 4
 * open exports): the work holds one of the store's numbered slots of its kind (table `store_slots`). A
 * slot is taken by an upsert that succeeds only when the slot is free or its lease has run out, so two
 * processes never hold the same slot; the lease is renewed while the work goes on and the slot is deleted
 * when it ends. A process that dies mid-work frees its slots when their leases run out (LEASE_SECONDS).
 * Not an advisory lock: that would hold a pool connection for as long as the work (an upload of minutes),
 * and on the embedded engine's one session a second lock by the same session always succeeds.
 */

const LEASE_SECONDS = 60;

export interface StoreSlot {
  /** frees the slot; safe to call more than once */
  release(): Promise<void>;
}

async function takeSlot(db: Db, storeId: string, kind: string, slot: number, token: string): Promise<boolean> {
  const { rows } = await sql<{ slot: number }>`
    INSERT INTO store_slots (store_id, kind, slot, token, lease_until)
    VALUES (${storeId}, ${kind}, ${slot}, ${token}, now() + make_interval(secs => ${LEASE_SECONDS}))
    ON CONFLICT (store_id, kind, slot) DO UPDATE SET token = EXCLUDED.token, lease_until = EXCLUDED.lease_until
      WHERE store_slots.lease_until <= now()
    RETURNING slot`.execute(db);
  return rows.length > 0;
}

/**
 * One of the store's `max` slots of `kind`, or null when all are held (the caller answers 429). Tries each
 * slot in turn: at most `max` short statements, each atomic on its own row.
 */
export function takeStoreSlot(db: Db, storeId: string, kind: string, max: number): Promise<StoreSlot | null> {
  // A slot is a row every process must see at once: taken, renewed and freed on the primary, also by an
  // export whose reads go to a replica (a standby refuses the write: src/db/replicas.ts, onPrimary).
  return onPrimary(db, () => takeFreeSlot(db, storeId, kind, max));
}

async function takeFreeSlot(db: Db, storeId: string, kind: string, max: number): Promise<StoreSlot | null> {
  const token = randomUUID();
  for (let slot = 0; slot < max; slot++) {
    if (await takeSlot(db, storeId, kind, slot, token)) return heldSlot(db, storeId, kind, slot, token);
  }
  return null;
}

function heldSlot(db: Db, storeId: string, kind: string, slot: number, token: string): StoreSlot {
  const where = sql`store_id = ${storeId} AND kind = ${kind} AND slot = ${slot} AND token = ${token}`;
  // started inside onPrimary: its renewals go to the primary as well
  const renew = setInterval(
    () => {
      sql`UPDATE store_slots SET lease_until = now() + make_interval(secs => ${LEASE_SECONDS}) WHERE ${where}`
        .execute(db)
        .catch(() => undefined);
    },
    (LEASE_SECONDS * 1000) / 3,
  );
  renew.unref();
  let released: Promise<void> | null = null;
  return {
    release() {
      clearInterval(renew);
      // If the delete fails (the database is away), the lease runs out on its own.
      // (called from wherever the work ends: inside a routed read too)
      released ??= onPrimary(db, () => sql`DELETE FROM store_slots WHERE ${where}`.execute(db))
        .then(() => undefined)
        .catch(() => undefined);
      return released;
    },
  };
}
