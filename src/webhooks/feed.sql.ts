import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/index.js';

/**
 * Deliveries made from the feed (migrations/0030): each webhook has a cursor in its store's feed; the
 * workers read the events after it, in feed order (xid, seq) and only of transactions finished before their
 * snapshot (the feed's own rule, docs/events.md), insert a delivery for each event the webhook subscribes to
 * and move the cursor past every event read, in one statement. Writes pay nothing for webhooks. Replays
 * are replays.sql.ts.
 */

// An ObjectId-shaped id made in SQL (time first, then random), so a batch is one statement.
export const deliveryId = (eventId: RawBuilder<unknown>, webhookId: RawBuilder<unknown>) =>
  sql`lpad(to_hex(floor(extract(epoch FROM clock_timestamp()))::bigint), 8, '0') || substr(md5(random()::text || ${eventId} || ${webhookId}), 1, 16)`;

// The body every attempt sends: the event as GET /events shows it.
export const eventJson = sql`json_build_object('id', p.event_id, 'type', p.type,
  'createdAt', to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', p.data)::text`;

export const visible = sql`e.xid < pg_snapshot_xmin(pg_current_snapshot())`;

/** Inserts the picked events' deliveries in feed order per webhook (their ordinals follow it). */
const insertPicked = (filter: RawBuilder<unknown>) => sql`
  INSERT INTO webhook_deliveries (store_id, id, webhook_id, event_id, type, payload, record_id, next_attempt_at)
  SELECT p.store_id, ${deliveryId(sql`p.event_id`, sql`p.webhook_id`)}, p.webhook_id, p.event_id, p.type, ${eventJson},
    p.data->>'id', now()
  FROM picked p WHERE ('*' = ANY (p.wants) OR p.type = ANY (p.wants)) AND ${filter}
  ORDER BY p.store_id, p.webhook_id, p.xid, p.seq
  RETURNING 1`;

const lastPicked = sql`SELECT DISTINCT ON (store_id, owner) store_id, owner, xid, seq, count(*) OVER (PARTITION BY store_id, owner) AS n
  FROM picked ORDER BY store_id, owner, xid DESC, seq DESC`;

export interface Made {
  /** deliveries inserted */
  made: number;
  /** some cursor read a full batch: there is more to read now */
  more: boolean;
}

/** A store's enabled webhooks with events after their cursor. */
const behind = sql`w.enabled AND EXISTS (SELECT 1 FROM events e WHERE e.store_id = w.store_id
  AND (e.xid, e.seq) > (w.cursor_xid, w.cursor_seq) AND ${visible})`;

/**
 * Up to `limit` stores with a webhook behind the feed, read without a lock: the deliveries are then made
 * per store (makeDeliveries), so no statement locks rows of two stores (docs/scaling.md).
 */
export async function storesBehind(db: Db, limit: number): Promise<string[]> {
  const { rows } = await sql<{ store_id: string }>`
    SELECT DISTINCT w.store_id FROM webhooks w WHERE ${behind} LIMIT ${limit}`.execute(db);
  return rows.map((row) => row.store_id);
}

/**
 * One round for the live cursors of a store: up to `hooks` of its enabled webhooks that have events after
 * their cursor, `batch` events each. Webhooks another worker is on are skipped (their row is locked for the
 * statement), and a webhook deleted meanwhile is simply not there: no foreign-key failure.
 */
export async function makeDeliveries(db: Db, storeId: string, hooks: number, batch: number): Promise<Made> {
  const { rows } = await sql<{ made: number; more: boolean }>`
    WITH hooks AS (
      SELECT w.store_id, w.id, w.events, w.cursor_xid, w.cursor_seq FROM webhooks w
      WHERE w.store_id = ${storeId} AND ${behind}
      LIMIT ${hooks}
      FOR NO KEY UPDATE OF w SKIP LOCKED
    ), picked AS (
      SELECT h.store_id, h.id AS webhook_id, h.id AS owner, h.events AS wants, e.id AS event_id, e.type, e.xid, e.seq, e.data, e.created_at
      FROM hooks h CROSS JOIN LATERAL (
        SELECT e.id, e.type, e.xid, e.seq, e.data, e.created_at FROM events e
        WHERE e.store_id = ${storeId} AND e.store_id = h.store_id AND (e.xid, e.seq) > (h.cursor_xid, h.cursor_seq) AND ${visible}
        ORDER BY e.xid, e.seq LIMIT ${batch}
      ) e
    ), inserted AS (${insertPicked(sql`true`)}
    ), last AS (${lastPicked}
    ), moved AS (
      UPDATE webhooks w SET cursor_xid = l.xid, cursor_seq = l.seq FROM last l
      WHERE w.store_id = ${storeId} AND w.store_id = l.store_id AND w.id = l.owner
    )
    SELECT (SELECT count(*) FROM inserted)::int AS made,
      COALESCE((SELECT bool_or(n >= ${batch}) FROM last), false) OR (SELECT count(*) FROM hooks) >= ${hooks} AS more`.execute(db);
  return { made: rows[0]?.made ?? 0, more: rows[0]?.more ?? false };
}
