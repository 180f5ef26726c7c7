import { sql } from 'kysely';
import { afterCommit, type Db, literal, type Tx, withCommit } from '../db/index.js';
import { deleteStoreByStore, type NewEvent, newId } from '../shared/index.js';
import type { Position } from './types.js';

/**
 * Every append NOTIFYs this channel with its store's id, sent by PostgreSQL at commit (and not at all on a
 * rollback); PostgreSQL folds the same payload sent twice in one transaction into one. It wakes the readers
 * of the feed in every process: the feed's long polls (waiters.ts) and the webhooks' delivery workers, which
 * make deliveries from the feed.
 */
export const FEED_CHANNEL = 'storefront_events';

/**
 * Appends events (`texts[i]`: the JSON of `events[i].data`) in the writing transaction: xid (the transaction) and seq (their order) come from defaults.
 */
export async function insertEvents(trx: Tx, storeId: string, events: NewEvent[], texts: string[]): Promise<void> {
  const values = events.map(({ type, data }, i) => ({ store_id: storeId, id: newId(), type, record_id: recordIdOf(data), data: texts[i] }));
  // One statement: a data-modifying WITH runs whether or not the rest reads it.
  await sql`WITH appended AS (${trx.insertInto('events').values(values)}) SELECT pg_notify(${FEED_CHANNEL}, ${storeId})`.execute(trx);
}

/**
 * The same INSERT, sent with the transaction's COMMIT instead of on its own (src/db/statements/deferred.ts): for a
 * write whose event is the last thing it does. Its values are literals, so the statement needs no parameters.
 * The NOTIFY follows the COMMIT in the same message (`afterCommit`): inside the transaction it would make
 * every write's commit wait for the previous notifying commit's WAL flush.
 */
export async function insertEventsWithCommit(trx: Tx, storeId: string, events: NewEvent[], texts: string[]): Promise<void> {
  const rows = events.map(
    ({ type, data }, i) =>
      `(${[storeId, newId(), type, recordIdOf(data), texts[i]].map((value) => (value === null ? 'NULL' : literal(value))).join(', ')})`,
  );
  await withCommit(`INSERT INTO events (store_id, id, type, record_id, data) VALUES ${rows.join(', ')}`).execute(trx);
  await afterCommit(`SELECT pg_notify(${literal(FEED_CHANNEL)}, ${literal(storeId)})`).execute(trx);
}

/** The record an event is about (its `data.id`), kept in a column of its own so the feed filters by it (migration 0113). */
const recordIdOf = (data: object): string | null => {
  const id = (data as { id?: unknown }).id;
  return id === undefined || id === null ? null : String(id);
};

/** Which events a read keeps: `types` those only (none: no event; null: all), `recordId` one record's. */
export interface EventFilter {
  types: readonly string[] | null;
  recordId?: string;
}

export interface EventRow {
  id: string;
  at_xid: string;
  at_seq: string;
  type: string;
  data: unknown;
  created_at: Date;
}

/**
 * The store's events after `from`, in feed order, of transactions that were finished when this statement's
 * snapshot was taken: every transaction still running (or not yet started) has an xid at or above the
 * snapshot's xmin, so whatever it writes lands after the last position returned here (docs/events.md).
 */
export async function eventsAfter(db: Db, storeId: string, from: Position, filter: EventFilter, limit: number): Promise<EventRow[]> {
  if (filter.types?.length === 0) return [];
  return filtered(db, storeId, filter)
    .where(sql<boolean>`(xid, seq) > (${from.xid}::xid8, ${from.seq}::bigint)`)
    .orderBy('events.xid')
    .orderBy('events.seq')
    .limit(limit)
    .execute();
}

/**
 * The same events newest first: those before `before` (null: from the newest the feed shows), under the same
 * snapshot rule, so the newest one returned is a position a forward read may start after without missing a
 * transaction that was still running (the console's "Live" starts there).
 */
export async function eventsBefore(
  db: Db,
  storeId: string,
  before: Position | null,
  filter: EventFilter,
  limit: number,
): Promise<EventRow[]> {
  if (filter.types?.length === 0) return [];
  let query = filtered(db, storeId, filter);
  if (before) query = query.where(sql<boolean>`(xid, seq) < (${before.xid}::xid8, ${before.seq}::bigint)`);
  return query.orderBy('events.xid', 'desc').orderBy('events.seq', 'desc').limit(limit).execute();
}

/**
 * One store's shown events and the filter: one type or a record is a range of its index (migration 0113:
 * (store_id, type, xid, seq), (store_id, record_id, xid, seq)); none, of the primary key.
 */
function filtered(db: Db, storeId: string, { types, recordId }: EventFilter) {
  let query = db
    .selectFrom('events')
    // Read as text under other names: ORDER BY xid would otherwise sort the text aliases ('10' < '9').
    .select(['id', 'type', 'data', 'created_at', sql<string>`xid::text`.as('at_xid'), sql<string>`seq::text`.as('at_seq')])
    .where('store_id', '=', storeId)
    .where(sql<boolean>`xid < pg_snapshot_xmin(pg_current_snapshot())`);
  if (types) query = query.where('type', 'in', types);
  if (recordId !== undefined) query = query.where('record_id', '=', recordId);
  return query;
}

/**
 * The store's last event the feed shows now (`visible`: of a transaction finished before this statement's
 * snapshot) and its last event at all (`newest`, possibly of a transaction still running or one that ended
 * after an older one still running): when they differ, events are on their way that no NOTIFY may announce
 * again (their commit's NOTIFY came while an older transaction held them back). Null: no such event.
 */
export async function feedEnds(db: Db, storeId: string): Promise<{ visible: Position | null; newest: Position | null }> {
  const last = (visibleOnly: boolean) =>
    sql<string>`(SELECT xid::text || ':' || seq::text FROM events WHERE store_id = ${storeId}
      ${visibleOnly ? sql`AND xid < pg_snapshot_xmin(pg_current_snapshot())` : sql``}
      ORDER BY xid DESC, seq DESC LIMIT 1)`;
  const { rows } = await sql<{
    visible: string | null;
    newest: string | null;
  }>`SELECT ${last(true)} AS visible, ${last(false)} AS newest`.execute(db);
  const position = (text: string | null | undefined): Position | null => {
    if (!text) return null;
    const [xid, seq] = text.split(':');
    return { xid, seq };
  };
  return { visible: position(rows[0]?.visible), newest: position(rows[0]?.newest) };
}

/** Where a store's event sits in the feed (for `after=<event id>`). */
export async function positionOf(db: Db, storeId: string, id: string): Promise<Position | undefined> {
  return db
    .selectFrom('events')
    .select([sql<string>`xid::text`.as('xid'), sql<string>`seq::text`.as('seq')])
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Deletes up to `batch` events older than the retention, the oldest first: read across stores without a
 * lock, deleted store by store (rows another purger holds are skipped).
 */
export async function purgeOldBatch(db: Db, retentionDays: number, batch: number): Promise<number> {
  const { rows } = await sql<{ store_id: string; xid: string; seq: string }>`
    SELECT store_id, xid::text AS xid, seq::text AS seq FROM events
    WHERE created_at < now() - make_interval(days => ${retentionDays}) ORDER BY created_at LIMIT ${batch}`.execute(db);
  return deleteStoreByStore(rows, async (storeId, old) => {
    const result = await sql`
      DELETE FROM events WHERE store_id = ${storeId} AND (xid, seq) IN (
        SELECT e.xid, e.seq FROM events e
        JOIN unnest(${old.map((row) => row.xid)}::xid8[], ${old.map((row) => row.seq)}::bigint[]) AS k(xid, seq)
          ON e.xid = k.xid AND e.seq = k.seq
        WHERE e.store_id = ${storeId} FOR UPDATE OF e SKIP LOCKED
      )`.execute(db);
    return Number(result.numAffectedRows ?? 0n);
  });
}
