import { type Static, Type } from '@sinclair/typebox';
import { Described, EVENT_TYPES, ID_PATTERN, StringEnum, Timestamp } from '../shared/index.js';

export const EventsQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 250, default: 25, description: 'events per page, 1 to 250 (default 25)' }),
  types: Type.Optional(
    Type.String({ maxLength: 2000, description: `comma-separated event types to return, e.g. product.created,order.created` }),
  ),
  recordId: Type.Optional(
    Type.String({ pattern: ID_PATTERN, description: "only the events of this record (their data.id): a product's, an order's, …" }),
  ),
  after: Type.Optional(Type.String({ pattern: ID_PATTERN, description: 'start after this event (not with it); not with cursor' })),
  cursor: Type.Optional(
    Type.String({ maxLength: 1000, description: 'pagination.nextCursor of the previous page, with the same types, recordId and limit' }),
  ),
  wait: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 60,
      description:
        'long poll: when the page would be empty, hold the request up to this many seconds until an event after its position is committed (answered within about a second of it), then answer; the empty page when the time is up',
    }),
  ),
});
export type EventsQuery = Static<typeof EventsQuery>;

export const Event = Type.Object(
  {
    id: Type.String({ description: 'unique, the same on every read (and the webhook-id of its deliveries)' }),
    type: StringEnum(EVENT_TYPES, { description: 'what happened, as "product.updated" (resource.created, .updated or .deleted)' }),
    createdAt: Described(Timestamp, 'when the change was committed'),
    data: Type.Object(
      { id: Type.String({ description: 'the identifier of the record' }) },
      { additionalProperties: true, description: 'the record as GET returns it; for a delete, the record as it was' },
    ),
  },
  { title: 'Event', description: 'a change of a record of the store, in commit order' },
);
export type Event = Static<typeof Event>;

export const EventPagination = Type.Object(
  {
    limit: Type.Integer({ description: 'the page size asked for (default 25)' }),
    nextCursor: Type.String({ description: 'never null: at the end it marks the position after the last event; poll it' }),
    hasMore: Type.Boolean({ description: 'more events are available right now (read on without waiting)' }),
  },
  { title: 'EventPagination', description: 'where to read on' },
);

export const EventListEnvelope = Type.Object({
  success: Type.Boolean({ description: 'always true on a success' }),
  data: Type.Array(Event, { description: 'the events of this page, oldest first' }),
  pagination: EventPagination,
});
