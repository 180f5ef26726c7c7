import { type Static, Type } from '@sinclair/typebox';
import { EVENT_TYPES } from '../events/index.js';
import { Body, Envelope, ID_PATTERN, ListEnvelope, ListQuery, Nullable, StringEnum, Text, Timestamp } from '../shared/index.js';

/** A webhook's types: event types, or ['*'] for every type (`webhook.test` always reaches it). */
const Events = Type.Array(StringEnum(['*', ...EVENT_TYPES]), {
  minItems: 1,
  maxItems: EVENT_TYPES.length + 1,
  uniqueItems: true,
  description: 'event types to receive, or ["*"] for all',
});
const Url = Type.String({ maxLength: 2048, description: 'http(s); not a loopback, private or link-local address' });

export const Webhook = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    description: Nullable(Type.String()),
    enabled: Type.Boolean({ description: 'false: no new deliveries; set by the service after 3 days of failures' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Webhook' },
);
export type Webhook = Static<typeof Webhook>;

export const CreatedWebhook = Type.Object(
  {
    ...Webhook.properties,
    secret: Type.String({ description: 'whsec_…: verifies the signatures (Standard Webhooks); shown only in this response' }),
  },
  { title: 'WebhookCreated' },
);

export const CreateWebhookBody = Body({ url: Url, events: Events, description: Type.Optional(Nullable(Text(1000))) });
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Nullable(Text(1000))),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;

export const WEBHOOK_SORTS = ['createdAt', 'url'] as const;
export const WebhookListQuery = ListQuery(WEBHOOK_SORTS);
export type WebhookListQuery = Static<typeof WebhookListQuery>;

export const Delivery = Type.Object(
  {
    id: Type.String(),
    eventId: Type.String({ description: 'the webhook-id header of every attempt' }),
    type: Type.String(),
    status: StringEnum(['pending', 'succeeded', 'failed'] as const),
    attempts: Type.Integer(),
    lastResponseStatus: Nullable(Type.Integer()),
    lastError: Nullable(Type.String()),
    nextAttemptAt: Nullable(Timestamp),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'WebhookDelivery' },
);
export type Delivery = Static<typeof Delivery>;

export const DeliveryListQuery = ListQuery(['createdAt'] as const, {
  status: Type.Optional(StringEnum(['pending', 'succeeded', 'failed'] as const)),
});
export type DeliveryListQuery = Static<typeof DeliveryListQuery>;

export const DeliveryParams = Type.Object({
  id: Type.String({ pattern: ID_PATTERN }),
  deliveryId: Type.String({ pattern: ID_PATTERN }),
});

export const WebhookEnvelope = Envelope(Webhook);
export const CreatedWebhookEnvelope = Envelope(CreatedWebhook);
export const WebhookListEnvelope = ListEnvelope(Webhook);
export const DeliveryEnvelope = Envelope(Delivery);
export const DeliveryListEnvelope = ListEnvelope(Delivery);
