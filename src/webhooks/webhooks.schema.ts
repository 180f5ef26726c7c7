import { type Static, Type } from '@sinclair/typebox';
import { ListQuery } from '../reads/index.js';
import {
  Body,
  CreatedAt,
  Described,
  Envelope,
  EVENT_TYPES,
  ID_PATTERN,
  ListEnvelope,
  Nullable,
  PathId,
  RecordId,
  StringEnum,
  Text,
  Timestamp,
  UpdatedAt,
} from '../shared/index.js';

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
    id: RecordId,
    url: Type.String({ description: 'where deliveries are POSTed (http or https)' }),
    events: Type.Array(Type.String(), { description: 'the event types delivered, or ["*"] for all' }),
    description: Nullable(Type.String({ description: 'a note on what the webhook is for; null: none' })),
    enabled: Type.Boolean({ description: 'false: no new deliveries; set by the service after 3 days of failures' }),
    createdAt: CreatedAt,
    updatedAt: UpdatedAt,
  },
  { title: 'Webhook', description: 'an endpoint the store POSTs its events to, signed' },
);
export type Webhook = Static<typeof Webhook>;

export const CreatedWebhook = Type.Object(
  {
    ...Webhook.properties,
    secret: Type.String({ description: 'whsec_…: verifies the signatures (Standard Webhooks); shown only in this response' }),
  },
  { title: 'WebhookCreated', description: 'the webhook just created, with its signing secret (shown this once)' },
);

const Description = Described(Text(1000), 'a note on what the webhook is for, at most 1,000 characters');
export const CreateWebhookBody = Body({ url: Url, events: Events, description: Type.Optional(Nullable(Description)) });
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Nullable(Description)),
    enabled: Type.Optional(
      Type.Boolean({ description: 'false pauses deliveries; true resumes them (and re-enables a webhook the service disabled)' }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;

export const WEBHOOK_SORTS = ['createdAt', 'url'] as const;
export const WebhookListQuery = ListQuery(WEBHOOK_SORTS);
export type WebhookListQuery = Static<typeof WebhookListQuery>;

export const Delivery = Type.Object(
  {
    id: RecordId,
    eventId: Type.String({ description: 'the webhook-id header of every attempt' }),
    type: Type.String({ description: 'the event type delivered, as "product.updated"' }),
    status: StringEnum(['pending', 'succeeded', 'failed'] as const, {
      description: '`pending` (to be attempted, or retried), `succeeded` (a 2xx answer) or `failed` (retries exhausted)',
    }),
    attempts: Type.Integer({ description: 'attempts made so far (0 before the first)' }),
    lastResponseStatus: Nullable(Type.Integer({ description: 'the HTTP status of the last attempt; null: no answer (or no attempt yet)' })),
    lastError: Nullable(Type.String({ description: 'why the last attempt failed (a timeout, a refused connection); null: none' })),
    nextAttemptAt: Nullable(Described(Timestamp, 'when the next attempt is due; null: none is (the delivery has ended)')),
    createdAt: CreatedAt,
    updatedAt: UpdatedAt,
  },
  { title: 'WebhookDelivery', description: 'the sending of one event to one webhook, with its attempts' },
);
export type Delivery = Static<typeof Delivery>;

export const DeliveryAttempt = Type.Object(
  {
    attempt: Type.Integer({ description: 'its number among the delivery’s attempts, from 1' }),
    startedAt: Described(Timestamp, 'when it was sent'),
    durationMs: Type.Integer({ description: 'milliseconds until the answer (or the error)' }),
    responseStatus: Nullable(Type.Integer({ description: 'the HTTP status the receiver answered; null: no answer' })),
    responseBody: Nullable(Type.String({ description: 'the first 4 KB of the answer; null: no answer' })),
    error: Nullable(Type.String({ description: 'why it failed (a status, a timeout, a refused connection); null: it succeeded' })),
  },
  { title: 'WebhookDeliveryAttempt', description: 'one attempt of a delivery' },
);
export type DeliveryAttempt = Static<typeof DeliveryAttempt>;

export const DeliveryDetail = Type.Object(
  {
    ...Delivery.properties,
    payload: Type.String({ description: 'the body sent on every attempt (the event JSON)' }),
    attemptLog: Type.Array(DeliveryAttempt, {
      description: 'each attempt, oldest first (its newest 32; an attempt cut by a crash of the sender has none)',
    }),
  },
  { title: 'WebhookDeliveryDetail', description: 'a delivery with the body it sends and each attempt' },
);
export type DeliveryDetail = Static<typeof DeliveryDetail>;

export const DeliveryListQuery = ListQuery(['createdAt'] as const, {
  status: Type.Optional(
    StringEnum(['pending', 'succeeded', 'failed'] as const, { description: 'only deliveries in this state: pending, succeeded or failed' }),
  ),
});
export type DeliveryListQuery = Static<typeof DeliveryListQuery>;

export const DeliveryParams = Type.Object({
  id: PathId("the webhook's identifier"),
  deliveryId: PathId("the delivery's identifier"),
});

export const WebhookEnvelope = Envelope(Webhook);
export const CreatedWebhookEnvelope = Envelope(CreatedWebhook);
export const WebhookListEnvelope = ListEnvelope(Webhook);
export const DeliveryEnvelope = Envelope(Delivery);
export const DeliveryListEnvelope = ListEnvelope(Delivery);
export const DeliveryDetailEnvelope = Envelope(DeliveryDetail);

export const ReplayBody = Body({
  after: Type.Optional(Type.String({ pattern: ID_PATTERN, description: 'start after this event (its id)' })),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'events created at or after this time' })),
  until: Type.Optional(Type.String({ format: 'date-time', description: 'events created before this time' })),
});
export type ReplayBody = Static<typeof ReplayBody>;

export const ReplayQueued = Type.Object(
  { queued: Type.Integer({ description: 'events of the range the webhook subscribes to: each gets a new delivery' }) },
  { title: 'WebhookReplayQueued', description: 'what a replay queued' },
);
export const ReplayQueuedEnvelope = Envelope(ReplayQueued);
