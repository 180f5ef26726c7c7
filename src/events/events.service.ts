import type { Db } from '../db/index.js';
import { forbidden, invalidField, rateLimited, validationError } from '../errors.js';
import { EVENT_TYPES, isEventType, iso, mayReadEventType, missingEventScope } from '../shared/index.js';
import { decodeCursor, encodeCursor, type Walk } from './cursor.js';
import type { Event, EventsQuery } from './events.schema.js';
import { eventsAfter, positionOf } from './events.sql.js';
import type { LongPollGate } from './long-poll-gate.js';
import { type Position, START } from './types.js';
import type { FeedWaiters } from './waiters.js';

export interface EventPage {
  data: Event[];
  pagination: { limit: number; nextCursor: string; hasMore: boolean };
}

/**
 * Who reads the feed: the store, the scopes that decide which events it may see (§ scopes, docs/events.md),
 * and the credential, whose long polls are counted (long-poll-gate.ts).
 */
export interface Reader {
  storeId: string;
  scopes: readonly string[];
  principal: string;
}

/** A long poll refused by the gate is asked to come back after this long (its page was empty just now). */
const LONG_POLL_RETRY_SECONDS = 5;

/**
 * One page of the store's feed, oldest first, and the cursor to read on from (never null: poll it). With
 * `wait`, a page that would be empty is held until an event after its position is shown or the time is up
 * (then the empty page); each wake-up reads the page again exactly as the first read did, so the feed's
 * commit-order rule holds for a long poll as for any read.
 */
export async function listEvents(
  db: Db,
  { waiters, gate }: { waiters: FeedWaiters; gate: LongPollGate },
  reader: Reader,
  query: EventsQuery,
  signal?: AbortSignal,
): Promise<EventPage> {
  const walk: Walk = { types: typesOf(query.types), limit: query.limit };
  const shown = readableTypes(reader.scopes, walk.types);
  const from = await startOf(db, reader.storeId, query, walk);
  let page = await pageAfter(db, reader.storeId, from, walk, shown);
  if (page.data.length || query.wait === undefined) return page;
  // Only a request that is going to be held counts: one answered at once costs no waiting connection.
  const leave = gate.enter(reader.storeId, reader.principal);
  if (!leave) throw rateLimited(LONG_POLL_RETRY_SECONDS);
  try {
    const deadline = Date.now() + query.wait * 1000;
    let seen = from;
    for (;;) {
      const outcome = await waiters.wait(reader.storeId, seen, deadline, signal);
      if (outcome.kind !== 'event') return page;
      const { visible } = outcome;
      const key = [reader.storeId, visible.xid, visible.seq, from.xid, from.seq, walk.limit, shown?.join(',') ?? '*'].join('|');
      page = await waiters.readOnce(key, () => pageAfter(db, reader.storeId, from, walk, shown));
      if (page.data.length) return page;
      // None of this walk's types up to where the feed ended: wait for what comes after that.
      seen = outcome.visible;
    }
  } finally {
    leave();
  }
}

async function pageAfter(db: Db, storeId: string, from: Position, walk: Walk, shown: readonly string[] | null): Promise<EventPage> {
  const rows = await eventsAfter(db, storeId, from, shown, walk.limit + 1);
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

/**
 * The types this reader is shown: those it asked for (403 naming the first read scope it lacks for one of
 * them), else those its scopes may read; null: every type (no filter in the query).
 */
function readableTypes(scopes: readonly string[], requested: readonly string[]): readonly string[] | null {
  if (requested.length) {
    const missing = missingEventScope(scopes, requested);
    if (missing) throw forbidden(missing);
    return requested;
  }
  const readable = EVENT_TYPES.filter((type) => mayReadEventType(scopes, type));
  return readable.length === EVENT_TYPES.length ? null : readable;
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
