import type { Db } from '../db/index.js';
import { forbidden, invalidField, rateLimited, validationError } from '../errors.js';
import { EVENT_TYPES, isEventType, iso, mayReadEventType, missingEventScope } from '../shared/index.js';
import { decodeCursor, encodeCursor, type Walk } from './cursor.js';
import type { Event, EventsQuery } from './events.schema.js';
import { type EventFilter, type EventRow, eventsAfter, eventsBefore, feedEnds, positionOf } from './events.sql.js';
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
  const walk: Walk = { types: typesOf(query.types), recordId: query.recordId, limit: query.limit };
  const shown: EventFilter = { types: readableTypes(reader.scopes, walk.types), recordId: query.recordId };
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
      const filterKey = [shown.types?.join(',') ?? '*', shown.recordId ?? '*'];
      const key = [reader.storeId, visible.xid, visible.seq, from.xid, from.seq, walk.limit, ...filterKey].join('|');
      page = await waiters.readOnce(key, () => pageAfter(db, reader.storeId, from, walk, shown));
      if (page.data.length) return page;
      // None of this walk's types up to where the feed ended: wait for what comes after that.
      seen = outcome.visible;
    }
  } finally {
    leave();
  }
}

const toEvent = (row: EventRow): Event => ({
  id: row.id,
  type: row.type as Event['type'],
  createdAt: iso(row.created_at),
  data: row.data as Event['data'],
});

async function pageAfter(db: Db, storeId: string, from: Position, walk: Walk, shown: EventFilter): Promise<EventPage> {
  const rows = await eventsAfter(db, storeId, from, shown, walk.limit + 1);
  const page = rows.slice(0, walk.limit);
  const last = page.at(-1);
  return {
    data: page.map(toEvent),
    pagination: {
      limit: walk.limit,
      nextCursor: encodeCursor(last ? { xid: last.at_xid, seq: last.at_seq } : from, walk),
      hasMore: rows.length > walk.limit,
    },
  };
}

export interface RecentEventsQuery {
  /** comma-separated types, as GET /events's `types` */
  types?: string;
  recordId?: string;
  /** the `nextCursor` of the page before (older events) */
  cursor?: string;
  limit: number;
}

export interface RecentEventPage {
  data: Event[];
  /** where the next (older) page starts; null: none is left */
  nextCursor: string | null;
  /**
   * On a first page: a GET /events cursor with the same `types`, `recordId` and `limit` that reads what
   * commits after the newest event shown (the console's "Live" long-polls it). Null on later pages.
   */
  liveCursor: string | null;
}

/**
 * The store's feed newest first, for people (the console's Events screen): the same events, scopes and
 * snapshot rule as GET /events, paged backwards by a cursor of its own (bound to its filters and direction).
 * The first page's newest event is where a forward read (GET /events with `liveCursor`) goes on, so what
 * commits after the page was read is shown once, whichever transaction commits first.
 */
export async function listRecentEvents(db: Db, reader: Omit<Reader, 'principal'>, query: RecentEventsQuery): Promise<RecentEventPage> {
  const types = typesOf(query.types);
  const walk: Walk = { types, recordId: query.recordId, limit: query.limit, newestFirst: true };
  const shown: EventFilter = { types: readableTypes(reader.scopes, types), recordId: query.recordId };
  const before = query.cursor === undefined ? null : decodeCursor(query.cursor, walk);
  const rows = await eventsBefore(db, reader.storeId, before, shown, query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const older = rows.length > query.limit && last ? encodeCursor({ xid: last.at_xid, seq: last.at_seq }, walk) : null;
  return { data: page.map(toEvent), nextCursor: older, liveCursor: before ? null : await liveCursorOf(db, reader.storeId, page[0], walk) };
}

/** After the newest event shown; with none shown, after the newest the feed shows at all (nothing older can still commit). */
async function liveCursorOf(db: Db, storeId: string, newest: EventRow | undefined, walk: Walk): Promise<string> {
  const position = newest ? { xid: newest.at_xid, seq: newest.at_seq } : ((await feedEnds(db, storeId)).visible ?? START);
  return encodeCursor(position, { types: walk.types, recordId: walk.recordId, limit: walk.limit });
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
