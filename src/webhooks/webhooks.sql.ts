import { type Insertable, sql, type Updateable } from 'kysely';
import type { DB, Db, Tx } from '../db/index.js';
import { ilikeAny, type ListSpec } from '../reads/index.js';
import { deleteStoreByStore } from '../shared/index.js';
import type { DeliveryListQuery, WEBHOOK_SORTS } from './webhooks.schema.js';

export const WEBHOOK_COLUMNS = ['id', 'url', 'events', 'description', 'enabled', 'created_at', 'updated_at'] as const;

export function insertWebhook(trx: Tx, values: Insertable<DB['webhooks']>) {
  return trx.insertInto('webhooks').values(values).returning(WEBHOOK_COLUMNS).executeTakeFirstOrThrow();
}

/** Serializes webhook creations of one store (to the end of the transaction) and counts its webhooks. */
export async function lockAndCountWebhooks(trx: Tx, storeId: string): Promise<number> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`webhooks:${storeId}`}, 0))`.execute(trx);
  const row = await trx
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('store_id', '=', storeId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function selectWebhook(db: Db, storeId: string, id: string) {
  return db.selectFrom('webhooks').select(WEBHOOK_COLUMNS).where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
}

export const selectWebhooks = (db: Db, storeId: string) =>
  db.selectFrom('webhooks').select(WEBHOOK_COLUMNS).where('store_id', '=', storeId);

export const webhookListSpec: ListSpec<typeof WEBHOOK_SORTS> = {
  path: '/webhooks',
  sorts: { createdAt: sql`created_at`, updatedAt: sql`updated_at`, url: sql`url` },
  idColumn: sql`id`,
  search: ilikeAny(['url', 'description']),
};

/** `enabling`: a disabled webhook's cursor moves to the feed's present (an enabled one's stays). */
export function updateWebhookRow(trx: Tx, storeId: string, id: string, values: Updateable<DB['webhooks']>, enabling = false) {
  const present = sql<string>`CASE WHEN enabled THEN cursor_xid ELSE pg_snapshot_xmin(pg_current_snapshot()) END`;
  const start = sql<string>`CASE WHEN enabled THEN cursor_seq ELSE 0 END`;
  return trx
    .updateTable('webhooks')
    .set({ ...values, ...(enabling ? { cursor_xid: present, cursor_seq: start } : {}), updated_at: new Date() })
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .returning(WEBHOOK_COLUMNS)
    .executeTakeFirst();
}

/**
 * Holds the webhook's row to the end of the transaction (against a concurrent DELETE: what is inserted for
 * it then cannot fail its foreign key); undefined when it is gone.
 */
export function lockWebhook(trx: Tx, storeId: string, id: string) {
  return trx.selectFrom('webhooks').select('id').where('store_id', '=', storeId).where('id', '=', id).forNoKeyUpdate().executeTakeFirst();
}

/** Where a store's event sits in the feed (replay's `after`); undefined: no such event (or purged). */
export function positionOfEvent(trx: Tx, storeId: string, eventId: string) {
  return trx
    .selectFrom('events')
    .select([sql<string>`xid::text`.as('xid'), sql<string>`seq::text`.as('seq')])
    .where('store_id', '=', storeId)
    .where('id', '=', eventId)
    .executeTakeFirst();
}

export function deleteWebhookRow(trx: Tx, storeId: string, id: string) {
  return trx.deleteFrom('webhooks').where('store_id', '=', storeId).where('id', '=', id).returning('id').executeTakeFirst();
}

// An ObjectId-shaped id made in SQL (time first, then random), so a fan-out is one statement.
export function insertDelivery(trx: Tx, values: Insertable<DB['webhook_deliveries']>) {
  return trx.insertInto('webhook_deliveries').values(values).returning(DELIVERY_COLUMNS).executeTakeFirstOrThrow();
}

export const DELIVERY_COLUMNS = [
  'id',
  'event_id',
  'type',
  'status',
  'attempts',
  'last_response_status',
  'last_error',
  'next_attempt_at',
  'created_at',
  'updated_at',
] as const;

export const selectDeliveries = (db: Db, storeId: string, webhookId: string) =>
  db.selectFrom('webhook_deliveries').select(DELIVERY_COLUMNS).where('store_id', '=', storeId).where('webhook_id', '=', webhookId);

/** GET /webhooks/{id}/deliveries before its page: the webhook's deliveries, of `status` when given. */
export function selectDeliveryList(db: Db, storeId: string, webhookId: string, status: DeliveryListQuery['status']) {
  const base = selectDeliveries(db, storeId, webhookId);
  return status ? base.where('status', '=', status) : base;
}

export const deliveryListSpec: ListSpec<readonly ['createdAt']> = {
  path: '/webhooks/{id}/deliveries',
  sorts: { createdAt: sql`created_at`, updatedAt: sql`updated_at` },
  idColumn: sql`id`,
  search: ilikeAny(['type', 'event_id']),
};

/** One delivery of a webhook, with the body it sends; undefined: not this store's, or not this webhook's. */
export function selectDelivery(db: Db, storeId: string, webhookId: string, id: string) {
  return selectDeliveries(db, storeId, webhookId).select('payload').where('id', '=', id).executeTakeFirst();
}

/** A delivery's attempts, oldest first (at most KEPT_ATTEMPTS of worker.sql.ts are kept). */
export function selectAttempts(db: Db, storeId: string, deliveryId: string) {
  return db
    .selectFrom('webhook_delivery_attempts')
    .select(['attempt', 'started_at', 'duration_ms', 'response_status', 'response_body', 'error'])
    .where('store_id', '=', storeId)
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempt')
    .execute();
}

/** Due now again: a failed or succeeded delivery gets one more attempt; a pending one is sent without waiting. */
export function rescheduleDelivery(trx: Tx, storeId: string, webhookId: string, id: string) {
  return trx
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('store_id', '=', storeId)
    .where('webhook_id', '=', webhookId)
    .where('id', '=', id)
    .returning(DELIVERY_COLUMNS)
    .executeTakeFirst();
}

/** Wakes the delivery workers of every process when the transaction commits (both engines deliver NOTIFY at commit). */
export async function notifyWorkers(trx: Tx): Promise<void> {
  await sql`SELECT pg_notify(${WAKE_CHANNEL}, '')`.execute(trx);
}

// migrations/0020's fan-out trigger notifies the same channel by name.
export const WAKE_CHANNEL = 'storefront_webhook_deliveries';

/**
 * Deletes up to `batch` finished deliveries (succeeded, or failed for good) whose last change is older than
 * the retention; pending ones are never purged, however old. Read across stores without a lock, deleted
 * store by store; rows another purger holds are skipped.
 */
export async function purgeFinishedBatch(db: Db, retentionDays: number, batch: number): Promise<number> {
  const old = sql`status <> 'pending' AND updated_at < now() - make_interval(days => ${retentionDays})`;
  const { rows } = await sql<{ store_id: string; id: string }>`
    SELECT store_id, id FROM webhook_deliveries WHERE ${old} ORDER BY updated_at LIMIT ${batch}`.execute(db);
  return deleteStoreByStore(rows, async (storeId, finished) => {
    const result = await sql`
      DELETE FROM webhook_deliveries WHERE store_id = ${storeId} AND id IN (
        SELECT id FROM webhook_deliveries
        WHERE store_id = ${storeId} AND id = ANY (${finished.map((row) => row.id)}::text[]) AND ${old}
        FOR UPDATE SKIP LOCKED
      )`.execute(db);
    return Number(result.numAffectedRows ?? 0n);
  });
}
