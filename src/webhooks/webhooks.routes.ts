import type { App, AppContext } from '../http/index.js';
import { sendWrite } from '../http/index.js';
import { DeletedEnvelope, ErrorEnvelope, IdParams, ok, okList } from '../shared/index.js';
import {
  CreatedWebhookEnvelope,
  CreateWebhookBody,
  DeliveryDetailEnvelope,
  DeliveryEnvelope,
  DeliveryListEnvelope,
  DeliveryListQuery,
  DeliveryParams,
  ReplayBody,
  ReplayQueuedEnvelope,
  UpdateWebhookBody,
  WebhookEnvelope,
  WebhookListEnvelope,
  WebhookListQuery,
} from './webhooks.schema.js';
import {
  assertMayReceive,
  assertWebhookUrl,
  createWebhook,
  deleteWebhook,
  getDelivery,
  getWebhook,
  listDeliveries,
  listWebhooks,
  replayWebhook,
  retryDelivery,
  sendTestEvent,
  stopReplay,
  updateWebhook,
} from './webhooks.service.js';

const tags = ['Webhooks'];
const read = { scope: 'webhooks:read' };
// A subscription is configuration, not a store record: its writes have no event of their own.
const write = { scope: 'webhooks:write', event: false as const };

export async function registerWebhookRoutes(app: App, ctx: AppContext): Promise<void> {
  const { db, config } = ctx;
  const current = (id: string) => (trx: Parameters<typeof getWebhook>[0], storeId: string) => getWebhook(trx, storeId, id);
  app.get(
    '/webhooks',
    { config: read, schema: { tags, summary: 'List webhooks', querystring: WebhookListQuery, response: { 200: WebhookListEnvelope } } },
    async (request) => {
      const { data, pagination } = await listWebhooks(db, request.auth.storeId, request.query);
      return okList(data, pagination);
    },
  );
  app.post(
    '/webhooks',
    {
      config: write,
      schema: {
        tags,
        summary: 'Subscribe a URL to events (the secret is shown once)',
        body: CreateWebhookBody,
        response: { 201: CreatedWebhookEnvelope },
      },
    },
    async (request, reply) => {
      assertMayReceive(request.auth.scopes, request.body.events);
      await assertWebhookUrl(request.body.url, config.webhookAllowPrivate);
      return sendWrite(ctx, request, reply, (trx, storeId) => createWebhook(trx, storeId, request.body), 201);
    },
  );
  app.get(
    '/webhooks/:id',
    { config: read, schema: { tags, summary: 'Get a webhook', params: IdParams, response: { 200: WebhookEnvelope } } },
    async (request) => ok(await getWebhook(db, request.auth.storeId, request.params.id)),
  );
  app.patch(
    '/webhooks/:id',
    {
      config: write,
      schema: { tags, summary: 'Update a webhook', params: IdParams, body: UpdateWebhookBody, response: { 200: WebhookEnvelope } },
    },
    async (request, reply) => {
      await assertWebhookUrl(request.body.url, config.webhookAllowPrivate);
      const { id } = request.params;
      const { scopes } = request.auth;
      return sendWrite(ctx, request, reply, (trx, storeId) => updateWebhook(trx, storeId, id, request.body, scopes), {
        current: current(id),
      });
    },
  );
  app.delete(
    '/webhooks/:id',
    {
      config: write,
      schema: { tags, summary: 'Delete a webhook and its deliveries', params: IdParams, response: { 200: DeletedEnvelope } },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => deleteWebhook(trx, storeId, request.params.id), {
        current: current(request.params.id),
      }),
  );
  app.post(
    '/webhooks/:id/test',
    {
      config: write,
      schema: { tags, summary: 'Send a webhook.test event to this webhook', params: IdParams, response: { 202: DeliveryEnvelope } },
    },
    (request, reply) => sendWrite(ctx, request, reply, (trx, storeId) => sendTestEvent(trx, storeId, request.params.id), 202),
  );
  app.post(
    '/webhooks/:id/replay',
    {
      config: write,
      schema: {
        tags,
        summary: 'Deliver the retained events of a range again (after an event, since and/or until a time)',
        params: IdParams,
        body: ReplayBody,
        response: {
          202: ReplayQueuedEnvelope,
          409: { ...ErrorEnvelope, description: 'REPLAY_IN_PROGRESS: this webhook has a replay running (one at a time)' },
        },
      },
    },
    (request, reply) =>
      sendWrite(
        ctx,
        request,
        reply,
        (trx, storeId) => replayWebhook(trx, storeId, request.params.id, request.body, request.auth.scopes),
        202,
      ),
  );
  app.delete(
    '/webhooks/:id/replay',
    {
      config: write,
      schema: {
        tags,
        operationId: 'stopWebhookReplay',
        summary: "Stop this webhook's running replay (what it has not sent yet is not sent)",
        params: IdParams,
        response: { 200: DeletedEnvelope },
      },
    },
    (request, reply) => sendWrite(ctx, request, reply, (trx, storeId) => stopReplay(trx, storeId, request.params.id)),
  );
  app.get(
    '/webhooks/:id/deliveries',
    {
      // deliveries move by the worker's writes, not the caller's: read on the primary
      config: { ...read, reads: 'primary' },
      schema: {
        tags,
        summary: "A webhook's deliveries",
        params: IdParams,
        querystring: DeliveryListQuery,
        response: { 200: DeliveryListEnvelope },
      },
    },
    async (request) => {
      const { data, pagination } = await listDeliveries(db, request.auth.storeId, request.params.id, request.query);
      return okList(data, pagination);
    },
  );
  app.get(
    '/webhooks/:id/deliveries/:deliveryId',
    {
      config: { ...read, reads: 'primary' },
      schema: {
        tags,
        summary: 'A delivery with each attempt (time, duration, status, the first 4 KB of the answer, error)',
        params: DeliveryParams,
        response: { 200: DeliveryDetailEnvelope },
      },
    },
    async (request) => ok(await getDelivery(db, request.auth.storeId, request.params.id, request.params.deliveryId)),
  );
  app.post(
    '/webhooks/:id/deliveries/:deliveryId/retry',
    {
      config: write,
      schema: { tags, summary: 'Attempt a delivery again now', params: DeliveryParams, response: { 202: DeliveryEnvelope } },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => retryDelivery(trx, storeId, request.params.id, request.params.deliveryId), 202),
  );
}
