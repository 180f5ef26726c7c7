import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db, Tx } from '../db/index.js';
import { invalidField, notFound } from '../errors.js';
import { webUrlProblem } from '../http/index.js';
import { isId, iso, isoOrNull, newId, runList } from '../shared/index.js';
import { targetProblem } from './target.js';
import type { CreateWebhookBody, Delivery, DeliveryListQuery, UpdateWebhookBody, Webhook, WebhookListQuery } from './webhooks.schema.js';
import {
  type DELIVERY_COLUMNS,
  deleteWebhookRow,
  deliveryListSpec,
  insertDelivery,
  insertWebhook,
  notifyWorkers,
  rescheduleDelivery,
  selectDeliveries,
  selectWebhook,
  selectWebhooks,
  updateWebhookRow,
  type WEBHOOK_COLUMNS,
  webhookListSpec,
} from './webhooks.sql.js';
import type { WebhookDeliveryTable, WebhookTable } from './webhooks.tables.js';

type WebhookRow = Pick<Selectable<WebhookTable>, (typeof WEBHOOK_COLUMNS)[number]>;
type DeliveryRow = Pick<Selectable<WebhookDeliveryTable>, (typeof DELIVERY_COLUMNS)[number]>;

const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  events: row.events,
  description: row.description,
  enabled: row.enabled,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

const toDelivery = (row: DeliveryRow): Delivery => ({
  id: row.id,
  eventId: row.event_id,
  type: row.type,
  status: row.status,
  attempts: row.attempts,
  lastResponseStatus: row.last_response_status,
  lastError: row.last_error,
  nextAttemptAt: row.status === 'pending' ? isoOrNull(row.next_attempt_at) : null,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

/** `['*']` stands alone: with it, any other type is already included. */
const normalizeEvents = (events: string[]) => (events.includes('*') ? ['*'] : [...new Set(events)].sort());

/**
 * A webhook URL's checks, run before the write's transaction (a DNS lookup must not hold one open): the
 * shared rule for stored URLs, then where its host resolves to. Each attempt checks the address again.
 */
export async function assertWebhookUrl(url: string | undefined, allowPrivate: boolean): Promise<void> {
  if (url === undefined) return;
  const problem = webUrlProblem(url) ?? (await targetProblem(url, allowPrivate));
  if (problem) throw invalidField('url', problem);
}

export async function createWebhook(trx: Tx, storeId: string, input: CreateWebhookBody) {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const row = await insertWebhook(trx, {
    store_id: storeId,
    id: newId(),
    url: input.url,
    events: normalizeEvents(input.events),
    description: input.description ?? null,
    secret,
  });
  return { ...toWebhook(row), secret };
}

export async function getWebhook(db: Db, storeId: string, id: string): Promise<Webhook> {
  const row = isId(id) ? await selectWebhook(db, storeId, id) : undefined;
  if (!row) throw notFound('Webhook');
  return toWebhook(row);
}

export async function listWebhooks(db: Db, storeId: string, query: WebhookListQuery) {
  const { rows, pagination } = await runList(selectWebhooks(db, storeId), query, webhookListSpec, { db, storeId });
  return { data: rows.map(toWebhook), pagination };
}

/** Re-enabling a webhook ends its failing streak: the three days start again from its next failure. */
export async function updateWebhook(trx: Tx, storeId: string, id: string, input: UpdateWebhookBody): Promise<Webhook> {
  const row = await updateWebhookRow(trx, storeId, id, {
    ...(input.url === undefined ? {} : { url: input.url }),
    ...(input.events === undefined ? {} : { events: normalizeEvents(input.events) }),
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
    ...(input.enabled ? { failing_since: null } : {}),
  });
  if (!row) throw notFound('Webhook');
  if (input.enabled) await wakeWorkers(trx);
  return toWebhook(row);
}

export async function deleteWebhook(trx: Tx, storeId: string, id: string): Promise<{ id: string }> {
  const row = await deleteWebhookRow(trx, storeId, id);
  if (!row) throw notFound('Webhook');
  return { id: row.id };
}

/** A `webhook.test` event for this webhook alone: not in the feed, delivered like any other. */
export async function sendTestEvent(trx: Tx, storeId: string, id: string): Promise<Delivery> {
  const webhook = await getWebhook(trx, storeId, id);
  const eventId = newId();
  const payload = { id: eventId, type: 'webhook.test', createdAt: new Date().toISOString(), data: { webhookId: webhook.id } };
  const row = await insertDelivery(trx, {
    store_id: storeId,
    id: newId(),
    webhook_id: webhook.id,
    event_id: eventId,
    type: payload.type,
    payload: JSON.stringify(payload),
    next_attempt_at: new Date(),
  });
  await wakeWorkers(trx);
  return toDelivery(row);
}

export async function listDeliveries(db: Db, storeId: string, webhookId: string, query: DeliveryListQuery) {
  await getWebhook(db, storeId, webhookId);
  let base = selectDeliveries(db, storeId, webhookId);
  if (query.status) base = base.where('status', '=', query.status);
  const { rows, pagination } = await runList(base, query, deliveryListSpec, { db, storeId, within: [webhookId] });
  return { data: rows.map(toDelivery), pagination };
}

export async function retryDelivery(trx: Tx, storeId: string, webhookId: string, id: string): Promise<Delivery> {
  const row = isId(webhookId) && isId(id) ? await rescheduleDelivery(trx, storeId, webhookId, id) : undefined;
  if (!row) throw notFound('Delivery');
  await wakeWorkers(trx);
  return toDelivery(row);
}

// The NOTIFY reaches every process's worker once the transaction commits (PGlite forwards it the same way).
async function wakeWorkers(trx: Tx): Promise<void> {
  await notifyWorkers(trx);
}
