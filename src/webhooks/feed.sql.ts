import { type RawBuilder, sql } from 'kysely';
import type { Db, Tx } from '../db/index.js';

/**
 * Deliveries made from the feed (migrations/0030): each webhook has a cursor in its store's feed; the
 * workers read the events after it, in feed order (xid, seq) and only of transactions finished before their
 * snapshot (the feed's own rule, docs/events.md), insert a delivery for each event the webhook subscribes to
 * and move the cursor past every event read, in one statement. A replay is a range with a cursor of its own.
 * Writes pay nothing for webhooks.
 */

// An ObjectId-shaped id made in SQL (time first, then random), so a batch is one statement.
const deliveryId = (eventId: RawBuilder<unknown>, webhookId: RawBuilder<unknown>) =>
  sql`lpad(to_hex(floor(extract(epoch FROM clock_timestamp()))::bigint), 8, '0') || substr(md5(random()::text || ${eventId} || ${webhookId}), 1, 16)`;

// The body every attempt sends: the event as GET /events shows it.
const eventJson = sql`json_build_object('id', p.event_id, 'type', p.type,
  'createdAt', to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', p.data)::text`;

const visible = sql`e.xid < pg_snapshot_xmin(pg_current_snapshot())`;

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

/**
 * One round for the live cursors: up to `hooks` enabled webhooks (of `storeId`, or of any store) that have
 * events after their cursor, `batch` events each. Webhooks another worker is on are skipped (their row is
 * locked for the statement), and a webhook deleted meanwhile is simply not there: no foreign-key failure.
 */
export async function makeDeliveries(db: Db, storeId: string | null, hooks: number, batch: number): Promise<Made> {
  const { rows } = await sql<{ made: number; more: boolean }>`
    WITH hooks AS (
      SELECT w.store_id, w.id, w.events, w.cursor_xid, w.cursor_seq FROM webhooks w
      WHERE w.enabled ${storeId === null ? sql`` : sql`AND w.store_id = ${storeId}`}
        AND EXISTS (SELECT 1 FROM events e WHERE e.store_id = w.store_id
          AND (e.xid, e.seq) > (w.cursor_xid, w.cursor_seq) AND ${visible})
      LIMIT ${hooks}
      FOR NO KEY UPDATE OF w SKIP LOCKED
    ), picked AS (
      SELECT h.store_id, h.id AS webhook_id, h.id AS owner, h.events AS wants, e.id AS event_id, e.type, e.xid, e.seq, e.data, e.created_at
      FROM hooks h CROSS JOIN LATERAL (
        SELECT e.id, e.type, e.xid, e.seq, e.data, e.created_at FROM events e
        WHERE e.store_id = h.store_id AND (e.xid, e.seq) > (h.cursor_xid, h.cursor_seq) AND ${visible}
        ORDER BY e.xid, e.seq LIMIT ${batch}
      ) e
    ), inserted AS (${insertPicked(sql`true`)}
    ), last AS (${lastPicked}
    ), moved AS (
      UPDATE webhooks w SET cursor_xid = l.xid, cursor_seq = l.seq FROM last l
      WHERE w.store_id = l.store_id AND w.id = l.owner
    )
    SELECT (SELECT count(*) FROM inserted)::int AS made,
      COALESCE((SELECT bool_or(n >= ${batch}) FROM last), false) OR (SELECT count(*) FROM hooks) >= ${hooks} AS more`.execute(db);
  return { made: rows[0]?.made ?? 0, more: rows[0]?.more ?? false };
}

/**
 * One round for the replays: up to `replays` of them (oldest first, of enabled webhooks), `batch` events
 * each; a replay whose range is read to its end is deleted.
 */
export async function makeReplayDeliveries(db: Db, replays: number, batch: number): Promise<Made> {
  const { rows } = await sql<{ made: number; more: boolean }>`
    WITH replays AS (
      SELECT r.store_id, r.id, r.webhook_id, r.cursor_xid, r.cursor_seq, r.end_xid, r.since, r.until, w.events
      FROM webhook_replays r JOIN webhooks w ON w.store_id = r.store_id AND w.id = r.webhook_id
      WHERE w.enabled ORDER BY r.created_at LIMIT ${replays}
      FOR NO KEY UPDATE OF r SKIP LOCKED
    ), picked AS (
      SELECT r.store_id, r.webhook_id, r.id AS owner, r.events AS wants, r.since, r.until,
        e.id AS event_id, e.type, e.xid, e.seq, e.data, e.created_at
      FROM replays r CROSS JOIN LATERAL (
        SELECT e.id, e.type, e.xid, e.seq, e.data, e.created_at FROM events e
        WHERE e.store_id = r.store_id AND (e.xid, e.seq) > (r.cursor_xid, r.cursor_seq) AND e.xid < r.end_xid
        ORDER BY e.xid, e.seq LIMIT ${batch}
      ) e
    ), inserted AS (${insertPicked(sql`(p.since IS NULL OR p.created_at >= p.since) AND (p.until IS NULL OR p.created_at < p.until)`)}
    ), last AS (${lastPicked}
    ), moved AS (
      UPDATE webhook_replays r SET cursor_xid = l.xid, cursor_seq = l.seq FROM last l
      WHERE r.store_id = l.store_id AND r.id = l.owner AND l.n >= ${batch}
    ), finished AS (
      DELETE FROM webhook_replays r USING replays x
      WHERE r.store_id = x.store_id AND r.id = x.id
        AND NOT EXISTS (SELECT 1 FROM last l WHERE l.store_id = x.store_id AND l.owner = x.id AND l.n >= ${batch})
    )
    SELECT (SELECT count(*) FROM inserted)::int AS made, COALESCE((SELECT bool_or(n >= ${batch}) FROM last), false) AS more`.execute(db);
  return { made: rows[0]?.made ?? 0, more: rows[0]?.more ?? false };
}

export interface ReplayRange {
  /** start after this position (null: from the oldest retained event) */
  after: { xid: string; seq: string } | null;
  since: Date | null;
  until: Date | null;
}

/**
 * Records a replay of `range` for the webhook and counts the events it will deliver, in one statement (one
 * snapshot): the range ends at the feed's present, so events committed from now on are the live cursor's.
 * Counting reads index entries and the events' types and times, never their data.
 */
export async function insertReplay(
  trx: Tx,
  storeId: string,
  id: string,
  webhookId: string,
  events: readonly string[],
  range: ReplayRange,
): Promise<number> {
  const from = range.after ?? { xid: '0', seq: '0' };
  const { rows } = await sql<{ queued: string }>`
    WITH counted AS (
      SELECT count(*) AS n FROM events e
      WHERE e.store_id = ${storeId} AND (e.xid, e.seq) > (${from.xid}::xid8, ${from.seq}::bigint) AND ${visible}
        AND (${events.includes('*')} OR e.type = ANY (${[...events]}::text[]))
        AND (${range.since}::timestamptz IS NULL OR e.created_at >= ${range.since}::timestamptz)
        AND (${range.until}::timestamptz IS NULL OR e.created_at < ${range.until}::timestamptz)
    )
    INSERT INTO webhook_replays (store_id, id, webhook_id, cursor_xid, cursor_seq, end_xid, since, until)
    VALUES (${storeId}, ${id}, ${webhookId}, ${from.xid}::xid8, ${from.seq}::bigint, pg_snapshot_xmin(pg_current_snapshot()),
      ${range.since}::timestamptz, ${range.until}::timestamptz)
    RETURNING (SELECT n FROM counted)::text AS queued`.execute(trx);
  return Number(rows[0]?.queued ?? 0);
}
