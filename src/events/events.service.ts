import type { Db } from '../db/index.js';
import { invalidField, validationError } from '../errors.js';
import { iso } from '../shared/index.js';
import { decodeCursor, encodeCursor, type Walk } from './cursor.js';
import type { Event, EventsQuery } from './events.schema.js';
import { eventsAfter, positionOf } from './events.sql.js';
import { isEventType, type Position, START } from './types.js';

export interface EventPage {
  data: Event[];
  pagination: { limit: number; nextCursor: string; hasMore: boolean };
}

/** One page of the store's feed, oldest first, and the cursor to read on from (never null: poll it). */
export async function listEvents(db: Db, storeId: string, query: EventsQuery): Promise<EventPage> {
  const walk: Walk = { types: typesOf(query.types), limit: query.limit };
  const from = await startOf(db, storeId, query, walk);
  const rows = await eventsAfter(db, storeId, from, walk.types, walk.limit + 1);
  const page = rows.slice(0, walk.limit);
  const last = page.at(-1);
  return {
    data: page.map((row) => ({
      id: row.id,
      type: row.type as Event['type'],
      createdAt: iso(row.created_at),
      data: row.data as Event['data'],
    })),
    pagination: {
      limit: walk.limit,
      nextCursor: encodeCursor(last ? { xid: last.at_xid, seq: last.at_seq } : from, walk),
      hasMore: rows.length > walk.limit,
    },
  };
}

/** `types=a,b`: known types only, each once, in a fixed order so the cursor binds to the set, not its spelling. */
function typesOf(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const types = [...new Set(raw.split(',').map((type) => type.trim()))].sort();
  const unknown = types.filter((type) => !isEventType(type));
  if (unknown.length) throw invalidField('types', `unknown event type(s): ${unknown.join(', ')}`, 'query');
  return types;
}

async function startOf(db: Db, storeId: string, query: EventsQuery, walk: Walk): Promise<Position> {
  if (query.cursor !== undefined && query.after !== undefined) {
    throw validationError([{ field: 'after', in: 'query', message: 'not with cursor: the cursor already holds the position' }]);
  }
  if (query.cursor !== undefined) return decodeCursor(query.cursor, walk);
  if (query.after === undefined) return START;
  const position = await positionOf(db, storeId, query.after);
  if (!position) throw invalidField('after', 'names no event of this store (or one past retention)', 'query');
  return position;
}
