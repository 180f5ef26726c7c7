import { type Insertable, sql, type Updateable } from 'kysely';
import type { Db, Tx } from '../db/index.js';
import { ilikeAny, type ListSpec } from '../shared/index.js';
import type { WEBHOOK_SORTS } from './webhooks.schema.js';
import type { WebhookDeliveryTable, WebhookTable } from './webhooks.tables.js';

export const WEBHOOK_COLUMNS = ['id', 'url', 'events', 'description', 'enabled', 'created_at', 'updated_at'] as const;

export function insertWebhook(trx: Tx, values: Insertable<WebhookTable>) {
  return trx.insertInto('webhooks').values(values).returning(WEBHOOK_COLUMNS).executeTakeFirstOrThrow();
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

export function updateWebhookRow(trx: Tx, storeId: string, id: string, values: Updateable<WebhookTable>) {
  return trx
    .updateTable('webhooks')
    .set({ ...values, updated_at: new Date() })
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .returning(WEBHOOK_COLUMNS)
    .executeTakeFirst();
}

export function deleteWebhookRow(trx: Tx, storeId: string, id: string) {
  return trx.deleteFrom('webhooks').where('store_id', '=', storeId).where('id', '=', id).returning('id').executeTakeFirst();
}

// An ObjectId-shaped id made in SQL (time first, then random), so a fan-out is one statement.
export function insertDelivery(trx: Tx, values: Insertable<WebhookDeliveryTable>) {
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

export const deliveryListSpec: ListSpec<readonly ['createdAt']> = {
  path: '/webhooks/{id}/deliveries',
  sorts: { createdAt: sql`created_at`, updatedAt: sql`updated_at` },
  idColumn: sql`id`,
  search: ilikeAny(['type', 'event_id']),
};

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
 * Deletes up to `batch` finished deliveries (succeeded, or failed for good) of any store whose last change
 * is older than the retention; pending ones are never purged, however old. Rows another purger holds are skipped.
 */
export async function purgeFinishedBatch(db: Db, retentionDays: number, batch: number): Promise<number> {
  const result = await sql`
    DELETE FROM webhook_deliveries
    WHERE (store_id, id) IN (
      SELECT store_id, id FROM webhook_deliveries
      WHERE status <> 'pending' AND updated_at < now() - make_interval(days => ${retentionDays})
      ORDER BY updated_at LIMIT ${batch} FOR UPDATE SKIP LOCKED
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
