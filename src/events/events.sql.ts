import { sql } from 'kysely';
import { type Db, literal, type Tx, withCommit } from '../db/index.js';
import { newId } from '../shared/index.js';
import type { NewEvent, Position } from './types.js';

/**
 * Appends events (`texts[i]`: the JSON of `events[i].data`) in the writing transaction: xid (the transaction) and seq (their order) come from defaults;
 * the table's trigger fans them out to the store's webhooks (migrations/0020).
 */
export async function insertEvents(trx: Tx, storeId: string, events: NewEvent[], texts: string[]): Promise<void> {
  const values = events.map(({ type }, i) => ({ store_id: storeId, id: newId(), type, data: texts[i] }));
  await trx.insertInto('events').values(values).execute();
}

/**
 * The same INSERT, sent with the transaction's COMMIT instead of on its own (src/db/deferred.ts): for a
 * write whose event is the last thing it does. Its values are literals, so the statement needs no parameters.
 */
export async function insertEventsWithCommit(trx: Tx, storeId: string, events: NewEvent[], texts: string[]): Promise<void> {
  const rows = events.map(({ type }, i) => `(${[storeId, newId(), type, texts[i]].map(literal).join(', ')})`);
  await withCommit(`INSERT INTO events (store_id, id, type, data) VALUES ${rows.join(', ')}`).execute(trx);
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
export async function eventsAfter(db: Db, storeId: string, from: Position, types: readonly string[], limit: number): Promise<EventRow[]> {
  let query = db
    .selectFrom('events')
    // Read as text under other names: ORDER BY xid would otherwise sort the text aliases ('10' < '9').
    .select(['id', 'type', 'data', 'created_at', sql<string>`xid::text`.as('at_xid'), sql<string>`seq::text`.as('at_seq')])
    .where('store_id', '=', storeId)
    .where(sql<boolean>`(xid, seq) > (${from.xid}::xid8, ${from.seq}::bigint)`)
    .where(sql<boolean>`xid < pg_snapshot_xmin(pg_current_snapshot())`);
  if (types.length) query = query.where('type', 'in', types);
  return query.orderBy('events.xid').orderBy('events.seq').limit(limit).execute();
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

/** Deletes up to `batch` events of any store older than the retention; rows another purger holds are skipped. */
export async function purgeOldBatch(db: Db, retentionDays: number, batch: number): Promise<number> {
  const result = await sql`
    DELETE FROM events
    WHERE (store_id, xid, seq) IN (
      SELECT store_id, xid, seq FROM events WHERE created_at < now() - make_interval(days => ${retentionDays})
      ORDER BY created_at LIMIT ${batch} FOR UPDATE SKIP LOCKED
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
