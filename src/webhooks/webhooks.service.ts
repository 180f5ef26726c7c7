import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { DB, Db, Tx } from '../db/index.js';
import { AppError, forbidden, found, invalidField } from '../errors.js';
import { runList } from '../reads/index.js';
import { isId, iso, isoOrNull, missingEventScope, newId, webUrlProblem } from '../shared/index.js';
import { deleteReplayOf, insertReplay } from './replays.sql.js';
import { targetProblem } from './target.js';
import type {
  CreateWebhookBody,
  Delivery,
  DeliveryDetail,
  DeliveryListQuery,
  ReplayBody,
  UpdateWebhookBody,
  Webhook,
  WebhookListQuery,
} from './webhooks.schema.js';
import {
  type DELIVERY_COLUMNS,
  deleteWebhookRow,
  deliveryListSpec,
  insertDelivery,
  insertWebhook,
  lockAndCountWebhooks,
  lockWebhook,
  notifyWorkers,
  positionOfEvent,
  rescheduleDelivery,
  selectAttempts,
  selectDelivery,
  selectDeliveryList,
  selectWebhook,
  selectWebhooks,
  updateWebhookRow,
  type WEBHOOK_COLUMNS,
  webhookListSpec,
} from './webhooks.sql.js';

type WebhookRow = Pick<Selectable<DB['webhooks']>, (typeof WEBHOOK_COLUMNS)[number]>;
type DeliveryRow = Pick<Selectable<DB['webhook_deliveries']>, (typeof DELIVERY_COLUMNS)[number]>;

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

/** A store's webhooks at most: each one is deliveries to make and attempts to run for every write. */
export const MAX_WEBHOOKS_PER_STORE = 100;

/**
 * A webhook sends what it subscribes to wherever its URL says: its creator must be able to read every type
 * (`*`: every kind), or a key holding only webhooks:write would read customers and orders at its own URL.
 */
export function assertMayReceive(scopes: readonly string[], events: readonly string[]): void {
  const missing = missingEventScope(scopes, events);
  if (missing) throw forbidden(missing);
}

export async function createWebhook(trx: Tx, storeId: string, input: CreateWebhookBody) {
  // Two creations at once must not both see 99: they take turns on the store's count.
  if ((await lockAndCountWebhooks(trx, storeId)) >= MAX_WEBHOOKS_PER_STORE) {
    throw invalidField('url', `a store has at most ${MAX_WEBHOOKS_PER_STORE} webhooks: delete one first`);
  }
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
  return toWebhook(found(isId(id) && (await selectWebhook(db, storeId, id)), 'Webhook'));
}

export async function listWebhooks(db: Db, storeId: string, query: WebhookListQuery) {
  const { rows, pagination } = await runList(selectWebhooks(db, storeId), query, webhookListSpec, { db, storeId });
  return { data: rows.map(toWebhook), pagination };
}

/** Re-enabling a webhook ends its failing streak: the three days start again from its next failure. */
export async function updateWebhook(
  trx: Tx,
  storeId: string,
  id: string,
  input: UpdateWebhookBody,
  scopes: readonly string[],
): Promise<Webhook> {
  // What is sent where is decided by the events, the URL and being on: whoever changes one of them must be
  // able to read every type the webhook then receives (a new URL for a `*` webhook is a new reader of all).
  if (input.events !== undefined || input.url !== undefined || input.enabled) {
    assertMayReceive(scopes, input.events ?? (await getWebhook(trx, storeId, id)).events);
  }
  const changed = await updateWebhookRow(
    trx,
    storeId,
    id,
    {
      ...(input.url === undefined ? {} : { url: input.url }),
      ...(input.events === undefined ? {} : { events: normalizeEvents(input.events) }),
      ...(input.description === undefined ? {} : { description: input.description }),
      ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
      // Back on: a new failing streak, no pause, and its cursor at the feed's present (a disabled webhook
      // gets nothing, including what happened while it was off: a replay sends that on demand).
      ...(input.enabled ? { failing_since: null, timeouts: 0, paused_until: null } : {}),
    },
    input.enabled === true,
  );
  const row = found(changed, 'Webhook');
  if (input.enabled) await wakeWorkers(trx);
  return toWebhook(row);
}

export async function deleteWebhook(trx: Tx, storeId: string, id: string): Promise<{ id: string }> {
  return { id: found(await deleteWebhookRow(trx, storeId, id), 'Webhook').id };
}

/** A `webhook.test` event for this webhook alone: not in the feed, delivered like any other. */
export async function sendTestEvent(trx: Tx, storeId: string, id: string): Promise<Delivery> {
  const webhook = await getWebhook(trx, storeId, id);
  // A disabled webhook gets no delivery at all: a test delivery would wait forever.
  if (!webhook.enabled) throw invalidField('enabled', 'is false: enable the webhook before sending it a test event');
  await lockWebhook(trx, storeId, id);
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
  const base = selectDeliveryList(db, storeId, webhookId, query.status);
  const { rows, pagination } = await runList(base, query, deliveryListSpec, { db, storeId, within: [webhookId] });
  return { data: rows.map(toDelivery), pagination };
}

/** One delivery with its body and each attempt (time, duration, status, the first 4 KB of the answer, error). */
export async function getDelivery(db: Db, storeId: string, webhookId: string, id: string): Promise<DeliveryDetail> {
  const row = found(isId(webhookId) && isId(id) && (await selectDelivery(db, storeId, webhookId, id)), 'Delivery');
  const attempts = await selectAttempts(db, storeId, id);
  return {
    ...toDelivery(row),
    payload: row.payload,
    attemptLog: attempts.map((a) => ({
      attempt: a.attempt,
      startedAt: iso(a.started_at),
      durationMs: a.duration_ms,
      responseStatus: a.response_status,
      responseBody: a.response_body,
      error: a.error,
    })),
  };
}

export async function retryDelivery(trx: Tx, storeId: string, webhookId: string, id: string): Promise<Delivery> {
  const row = found(isId(webhookId) && isId(id) && (await rescheduleDelivery(trx, storeId, webhookId, id)), 'Delivery');
  await wakeWorkers(trx);
  return toDelivery(row);
}

// The NOTIFY reaches every process's worker once the transaction commits (PGlite forwards it the same way).
async function wakeWorkers(trx: Tx): Promise<void> {
  await notifyWorkers(trx);
}

/**
 * Queues a replay of the retained events in the range that the webhook subscribes to (the workers make the
 * deliveries in batches, feed.sql.ts); answers how many. The caller must be able to read what it sends again.
 */
export async function replayWebhook(
  trx: Tx,
  storeId: string,
  id: string,
  input: ReplayBody,
  scopes: readonly string[],
): Promise<{ queued: number }> {
  if (input.after === undefined && input.since === undefined && input.until === undefined) {
    throw invalidField('after', 'a replay needs a range: after (an event id), since and/or until');
  }
  const webhook = await getWebhook(trx, storeId, id);
  assertMayReceive(scopes, webhook.events);
  if (!webhook.enabled) throw invalidField('enabled', 'is false: enable the webhook before replaying events to it');
  const after = input.after === undefined ? null : await positionOfEvent(trx, storeId, input.after);
  if (after === undefined) throw invalidField('after', 'names no event of this store (or one past retention)');
  await lockWebhook(trx, storeId, id);
  const range = { after, since: input.since ? new Date(input.since) : null, until: input.until ? new Date(input.until) : null };
  const queued = await insertReplay(trx, storeId, newId(), id, webhook.events, range);
  if (queued === null) {
    throw new AppError(
      409,
      'REPLAY_IN_PROGRESS',
      'This webhook has a replay running: stop it (DELETE /webhooks/{id}/replay) or wait for its end',
    );
  }
  await wakeWorkers(trx);
  return { queued };
}

/** Stops the webhook's running replay: what it has not sent yet is not sent. 404 when none runs. */
export async function stopReplay(trx: Tx, storeId: string, id: string): Promise<{ id: string }> {
  await getWebhook(trx, storeId, id);
  return { id: found(await deleteReplayOf(trx, storeId, id), 'Running replay').id };
}
