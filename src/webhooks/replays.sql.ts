import { sql } from 'kysely';
import type { Db, Tx } from '../db/index.js';
import { deliveryId, eventJson, visible } from './feed.sql.js';

/**
 * Replays (migrations/0030, 0084): a range of the feed delivered again through a cursor of its own. A worker
 * claims a replay (a lease, like a delivery's), reads the next events after its cursor that the webhook
 * subscribes to, sends them one after the other in feed order and moves the cursor past each one answered
 * with a 2xx. An event that fails is tried again on the retry schedule (the replay waits); after its last
 * attempt it gets one `failed` delivery row (so it shows in GET /webhooks/{id}/deliveries) and the replay goes
 * on. Nothing else is written per event: a replay of 220,000 events is one row, updated once per batch.
 */

export interface ReplayRange {
  /** start after this position (null: from the oldest retained event) */
  after: { xid: string; seq: string } | null;
  since: Date | null;
  until: Date | null;
}

/**
 * Records a replay of `range` for the webhook and counts the events it will deliver, in one statement (one
 * snapshot): the range ends at the feed's present, so events committed from now on are the live cursor's.
 * Counting reads index entries and the events' types and times, never their data. Null: the webhook already
 * has a replay running (one at a time).
 */
export async function insertReplay(
  trx: Tx,
  storeId: string,
  id: string,
  webhookId: string,
  events: readonly string[],
  range: ReplayRange,
): Promise<number | null> {
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
    ON CONFLICT (store_id, webhook_id) DO NOTHING
    RETURNING (SELECT n FROM counted)::text AS queued`.execute(trx);
  return rows[0] ? Number(rows[0].queued) : null;
}

/** Stops the webhook's replay (DELETE /webhooks/{id}/replay); undefined: none was running. */
export async function deleteReplayOf(trx: Tx, storeId: string, webhookId: string): Promise<{ id: string } | undefined> {
  const { rows } = await sql<{ id: string }>`
    DELETE FROM webhook_replays WHERE store_id = ${storeId} AND webhook_id = ${webhookId} RETURNING id`.execute(trx);
  return rows[0];
}

export interface ReplayedEvent {
  id: string;
  type: string;
  xid: string;
  seq: string;
  recordId: string | null;
  payload: string;
}

/** A replay claimed for one batch: where to send, and its next events (none: the range is done). */
export interface ClaimedReplay {
  store_id: string;
  id: string;
  webhook_id: string;
  /** counted at the claim: the attempt number of the first event, if the claim before failed on it */
  attempts: number;
  url: string;
  secret: string;
  events: ReplayedEvent[];
}

const due = sql`r.next_attempt_at <= now() AND w.enabled AND (w.paused_until IS NULL OR w.paused_until <= now())`;

/**
 * Claims up to `limit` due replays of enabled, unpaused webhooks (oldest due first; rows another process is
 * claiming are skipped), leases each for `leaseSeconds` and reads its next `batch` events. The due replays
 * are read first without a lock, then claimed store by store (no statement locks rows of two stores,
 * docs/scaling.md), each claim one short statement that locks only replay rows: a webhook deleted meanwhile
 * takes its replay with it, never waiting on a worker that waits on it.
 */
export async function claimReplays(db: Db, limit: number, batch: number, leaseSeconds: number): Promise<ClaimedReplay[]> {
  const { rows } = await sql<{ store_id: string; ids: string[] }>`
    SELECT store_id, array_agg(id) AS ids FROM (
      SELECT r.store_id, r.id FROM webhook_replays r JOIN webhooks w ON w.store_id = r.store_id AND w.id = r.webhook_id
      WHERE ${due} ORDER BY r.next_attempt_at LIMIT ${limit}
    ) d GROUP BY store_id`.execute(db);
  const claimed: ClaimedReplay[] = [];
  for (const { store_id, ids } of rows) claimed.push(...(await claimStoreReplays(db, store_id, ids, batch, leaseSeconds)));
  return claimed;
}

async function claimStoreReplays(db: Db, storeId: string, ids: string[], batch: number, leaseSeconds: number): Promise<ClaimedReplay[]> {
  const { rows } = await sql<ClaimedReplay>`
    WITH due AS (
      SELECT r.store_id, r.id FROM webhook_replays r
      JOIN webhooks w ON w.store_id = r.store_id AND w.id = r.webhook_id
      WHERE r.store_id = ${storeId} AND r.id = ANY (${ids}::text[]) AND ${due}
      FOR UPDATE OF r SKIP LOCKED
    ), leased AS (
      UPDATE webhook_replays r SET attempts = r.attempts + 1, next_attempt_at = now() + make_interval(secs => ${leaseSeconds})
      FROM due WHERE r.store_id = ${storeId} AND r.id = due.id
      RETURNING r.store_id, r.id, r.webhook_id, r.attempts, r.cursor_xid, r.cursor_seq, r.end_xid, r.since, r.until
    )
    SELECT l.store_id, l.id, l.webhook_id, l.attempts, w.url, w.secret, COALESCE((
      SELECT json_agg(json_build_object('id', p.event_id, 'type', p.type, 'xid', p.xid::text, 'seq', p.seq::text,
        'recordId', p.data->>'id', 'payload', ${eventJson}) ORDER BY p.xid, p.seq)
      FROM (
        SELECT e.id AS event_id, e.type, e.xid, e.seq, e.data, e.created_at FROM events e
        WHERE e.store_id = ${storeId} AND (e.xid, e.seq) > (l.cursor_xid, l.cursor_seq) AND e.xid < l.end_xid
          AND ('*' = ANY (w.events) OR e.type = ANY (w.events))
          AND (l.since IS NULL OR e.created_at >= l.since) AND (l.until IS NULL OR e.created_at < l.until)
        ORDER BY e.xid, e.seq LIMIT ${batch}
      ) p), '[]'::json) AS events
    FROM leased l JOIN webhooks w ON w.store_id = ${storeId} AND w.id = l.webhook_id`.execute(db);
  return rows;
}

/** How a claimed batch went: the cursor moves past `answered`; `failed` (if any) is retried or left behind. */
export interface ReplayOutcome {
  /** the last event answered with a 2xx, null: none */
  answered: ReplayedEvent | null;
  /** how many were answered with a 2xx */
  count: number;
  /** the event that failed: tried again after `retryInSeconds`, or (null) finally failed and passed */
  failed: { event: ReplayedEvent; attempt: number; retryInSeconds: number | null } | null;
}

/**
 * Writes a batch's outcome to its replay, if the replay is still at that claim (its lease did not run out
 * and it was not stopped or deleted meanwhile). Answers whether it was written.
 */
export async function recordReplay(db: Db, claimed: ClaimedReplay, outcome: ReplayOutcome): Promise<boolean> {
  const { failed } = outcome;
  const passed = failed && failed.retryInSeconds === null ? failed.event : outcome.answered;
  const retrying = failed !== null && failed.retryInSeconds !== null;
  const { rows } = await sql<{ id: string }>`
    UPDATE webhook_replays SET
      cursor_xid = COALESCE(${passed?.xid ?? null}::xid8, cursor_xid),
      cursor_seq = COALESCE(${passed?.seq ?? null}::bigint, cursor_seq),
      attempts = ${retrying ? (failed?.attempt ?? 0) : 0},
      next_attempt_at = now() + make_interval(secs => ${retrying ? (failed?.retryInSeconds ?? 0) : 0}),
      sent = sent + ${outcome.count}
    WHERE store_id = ${claimed.store_id} AND id = ${claimed.id} AND attempts = ${claimed.attempts}
    RETURNING id`.execute(db);
  return rows.length > 0;
}

/** A replay whose claim found no event left: done. */
export async function finishReplay(db: Db, claimed: ClaimedReplay): Promise<void> {
  await sql`DELETE FROM webhook_replays WHERE store_id = ${claimed.store_id} AND id = ${claimed.id} AND attempts = ${claimed.attempts}`.execute(
    db,
  );
}

/**
 * The one row a replayed event leaves when it finally fails: a `failed` delivery, listable and retryable by
 * hand like any other. Its own statement, after the replay's: it refers to the webhook, which a DELETE may be
 * removing (then the webhook's deliveries are gone anyway, and this insert finds no webhook: nothing written).
 */
export async function insertFailedReplayed(
  db: Db,
  claimed: ClaimedReplay,
  event: ReplayedEvent,
  last: { attempts: number; status: number | null; body: string | null; error: string | null },
): Promise<void> {
  await sql`
    INSERT INTO webhook_deliveries (store_id, id, webhook_id, event_id, type, payload, record_id, next_attempt_at, status,
      attempts, last_response_status, last_response_body, last_error)
    SELECT w.store_id, ${deliveryId(sql`${event.id}::text`, sql`w.id`)}, w.id, ${event.id}, ${event.type}, ${event.payload},
      ${event.recordId}, NULL, 'failed', ${last.attempts}, ${last.status}, ${last.body}, ${last.error}
    FROM webhooks w WHERE w.store_id = ${claimed.store_id} AND w.id = ${claimed.webhook_id}`.execute(db);
}
