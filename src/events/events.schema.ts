import { type Static, Type } from '@sinclair/typebox';
import { ID_PATTERN, StringEnum, Timestamp } from '../shared/index.js';
import { EVENT_TYPES } from './types.js';

export const EventsQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 250, default: 25 }),
  types: Type.Optional(
    Type.String({ maxLength: 2000, description: `comma-separated event types to return, e.g. product.created,order.created` }),
  ),
  after: Type.Optional(Type.String({ pattern: ID_PATTERN, description: 'start after this event (not with it); not with cursor' })),
  cursor: Type.Optional(
    Type.String({ maxLength: 1000, description: 'pagination.nextCursor of the previous page, with the same types and limit' }),
  ),
});
export type EventsQuery = Static<typeof EventsQuery>;

export const Event = Type.Object(
  {
    id: Type.String({ description: 'unique, the same on every read (and the webhook-id of its deliveries)' }),
    type: StringEnum(EVENT_TYPES),
    createdAt: Timestamp,
    data: Type.Object(
      { id: Type.String() },
      { additionalProperties: true, description: 'the record as GET returns it; for a delete, the record as it was' },
    ),
  },
  { title: 'Event' },
);
export type Event = Static<typeof Event>;

export const EventPagination = Type.Object(
  {
    limit: Type.Integer(),
    nextCursor: Type.String({ description: 'never null: at the end it marks the position after the last event; poll it' }),
    hasMore: Type.Boolean({ description: 'more events are available right now (read on without waiting)' }),
  },
  { title: 'EventPagination' },
);

export const EventListEnvelope = Type.Object({ success: Type.Boolean(), data: Type.Array(Event), pagination: EventPagination });
