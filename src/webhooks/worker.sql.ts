import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/index.js';

/** A delivery claimed for one attempt, with where and how to send it. */
export interface Claimed {
  store_id: string;
  id: string;
  webhook_id: string;
  event_id: string;
  payload: string;
  /** the number of this attempt (counted at the claim: an attempt cut by a crash still counts) */
  attempts: number;
  url: string;
  secret: string;
}

/** What this process has in flight per store: a store's share of the slots counts them. */
export interface Busy {
  stores: string[];
  counts: number[];
}

export interface ClaimSettings {
  /** free slots: claim at most this many */
  limit: number;
  /** all slots of the process: a store's share is slots / stores with work, at most `maxShare` */
  slots: number;
  maxShare: number;
  /**
   * how many more attempts stores that already have some in flight may start together (the slots outside
   * the quarter kept for stores with nothing in flight, less what is in flight): a store with nothing in
   * flight may always start its first
   */
  room: number;
  leaseSeconds: number;
  busy: Busy;
  /** the walk of stores starts after this store id ('' from the first): turns go round across claims */
  after: string;
}

/** A store's due deliveries that may go now, oldest due first (see claimDue). */
const dueOf = (store: RawBuilder<unknown>) => sql`
  SELECT d.store_id, d.id, d.next_attempt_at FROM webhook_deliveries d
  JOIN webhooks w ON w.store_id = d.store_id AND w.id = d.webhook_id
  WHERE d.store_id = ${store} AND d.status = 'pending' AND d.next_attempt_at <= now()
    AND w.enabled AND (w.paused_until IS NULL OR w.paused_until <= now())
    AND (d.record_id IS NULL OR NOT EXISTS (
      SELECT 1 FROM webhook_deliveries e
      WHERE e.store_id = d.store_id AND e.webhook_id = d.webhook_id AND e.record_id = d.record_id
        AND e.status = 'pending' AND e.ordinal < d.ordinal))
  ORDER BY d.next_attempt_at`;

/**
 * Claims due deliveries in turns across stores: it walks the stores that have due deliveries (after
 * `after`, one index probe each), takes each one's oldest due deliveries that may go now, and hands out the
 * free slots one per store per turn, a store never holding more than its share (slots / stores with work,
 * counting what it already has in flight). Only `room` of the attempts handed out may go to stores that
 * then have more than one in flight: a store with nothing in flight always gets its first, however many
 * slots other stores' slow receivers hold. A delivery may go now when its webhook is enabled and not paused
 * (a receiver that keeps timing out) and no earlier pending delivery of the same webhook is about the same
 * record (order per record). The shares are read first, without a lock; then each store's are claimed on
 * their own (storeClaim): no statement locks rows of two stores (docs/scaling.md).
 */
export async function claimDue(db: Db, settings: ClaimSettings): Promise<Claimed[]> {
  const claimed: Claimed[] = [];
  for (const share of await sharesOf(db, settings)) claimed.push(...(await storeClaim(db, share.store_id, share.n, settings.leaseSeconds)));
  return claimed;
}

/** How many attempts each store with due deliveries gets in this claim (claimDue's turns), read without a lock. */
async function sharesOf(db: Db, settings: ClaimSettings): Promise<{ store_id: string; n: number }[]> {
  const { limit, slots, maxShare, room, busy, after } = settings;
  const dueIn = (store: RawBuilder<unknown>) => sql`SELECT d.store_id FROM webhook_deliveries d
    WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND d.store_id > ${store} ORDER BY d.store_id LIMIT 1`;
  const { rows } = await sql<{ store_id: string; n: number }>`
    WITH RECURSIVE walk AS (
      (${dueIn(sql`${after}::text`)})
      UNION ALL
      SELECT (${dueIn(sql`walk.store_id`)}) FROM walk WHERE walk.store_id IS NOT NULL
    ), turns AS (
      SELECT store_id FROM walk WHERE store_id IS NOT NULL LIMIT ${limit}
    ), busy AS (
      SELECT * FROM unnest(${busy.stores}::text[], ${busy.counts}::int[]) AS b(store_id, n)
    ), share AS (
      SELECT greatest(1, least(${maxShare}, ${slots} / (SELECT count(*) FROM (SELECT store_id FROM turns UNION SELECT store_id FROM busy) s))) AS n
    ), due AS (
      SELECT c.* FROM turns t CROSS JOIN LATERAL (${dueOf(sql`t.store_id`)} LIMIT (SELECT n FROM share)) c
    ), shared AS (
      SELECT x.*, x.turn = 1 AND b.n IS NULL AS first FROM (
        SELECT due.*, row_number() OVER (PARTITION BY due.store_id ORDER BY due.next_attempt_at) AS turn FROM due
      ) x LEFT JOIN busy b ON b.store_id = x.store_id
      WHERE x.turn + COALESCE(b.n, 0) <= (SELECT n FROM share)
    ), picked AS (
      SELECT y.store_id, y.id FROM (
        SELECT shared.*, row_number() OVER (PARTITION BY shared.first ORDER BY shared.turn, shared.next_attempt_at) AS rank FROM shared
      ) y
      WHERE y.first OR y.rank <= ${room}
      ORDER BY y.turn, y.next_attempt_at LIMIT ${limit}
    )
    SELECT store_id, count(*)::int AS n FROM picked GROUP BY store_id ORDER BY store_id`.execute(db);
  return rows;
}

/**
 * Claims up to `n` of the store's due deliveries that may go now: rows another process is claiming are
 * skipped; each claimed row's next_attempt_at moves to the end of a lease: if this process dies mid-attempt,
 * the lease runs out and the attempt is retried (and the deliveries behind it keep waiting until then).
 */
async function storeClaim(db: Db, storeId: string, n: number, leaseSeconds: number): Promise<Claimed[]> {
  const { rows } = await sql<Claimed>`
    WITH picked AS (${dueOf(sql`${storeId}`)} LIMIT ${n} FOR UPDATE OF d SKIP LOCKED)
    UPDATE webhook_deliveries d
    SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => ${leaseSeconds}), updated_at = now()
    FROM picked, webhooks w
    WHERE d.store_id = ${storeId} AND d.id = picked.id AND w.store_id = ${storeId} AND w.id = d.webhook_id
    RETURNING d.store_id, d.id, d.webhook_id, d.event_id, d.payload, d.attempts, w.url, w.secret`.execute(db);
  return rows;
}

export interface Recorded {
  status: 'pending' | 'succeeded' | 'failed';
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  /** seconds until the next attempt (pending only) */
  retryInSeconds: number | null;
  /** the receiver did not answer in time */
  timedOut: boolean;
  /** when the attempt was sent, and how long it took (its row in webhook_delivery_attempts) */
  startedAt: Date;
  durationMs: number;
}

/** A delivery's newest attempts kept (webhook_delivery_attempts): the default schedule makes 11; /retry adds more. */
export const KEPT_ATTEMPTS = 32;

/** A receiver (a store's URL) whose attempts time out this many times in a row is paused, then longer and longer. */
export const PAUSE = { afterTimeouts: 2, firstSeconds: 10, maxSeconds: 600 } as const;

/**
 * Writes the outcomes of finished attempts, in one statement whatever their number (the worker records
 * what finished while its previous write ran). An outcome is written only if its delivery is still at that
 * attempt (its lease ran out and another attempt was claimed, or it was retried by hand: that attempt's
 * outcome is the one that counts). For the webhooks of the written outcomes, a success ends the failing
 * streak; only failures start one, and three days of it disable the webhook. For their receivers (the
 * store's webhooks with that URL), a timeout adds to the streak of timeouts that pauses them (PAUSE), an
 * answer ends it. Each written outcome is also a row of webhook_delivery_attempts (a delivery keeps its newest
 * KEPT_ATTEMPTS): inserted from the rows the UPDATE returned, which it holds, so a delivery deleted meanwhile
 * (its webhook deleted) has neither. One store's outcomes (`storeId`) per statement: none locks rows of two
 * stores (docs/scaling.md). Returns how many were written.
 */
export async function recordAttempts(
  db: Db,
  storeId: string,
  outcomes: { claimed: Claimed; recorded: Recorded }[],
  disableAfterDays: number,
): Promise<number> {
  const column = <T>(pick: (o: (typeof outcomes)[number]) => T) => outcomes.map(pick);
  const stale = sql`w.failing_since < now() - make_interval(days => ${disableAfterDays})`;
  const pause = sql`now() + make_interval(secs => least(${PAUSE.maxSeconds}, ${PAUSE.firstSeconds} * power(2, w.timeouts + 1 - ${PAUSE.afterTimeouts})))`;
  const { rows } = await sql<{ written: string }>`
    WITH outcome AS (
      SELECT * FROM unnest(${column((o) => o.claimed.store_id)}::text[], ${column((o) => o.claimed.id)}::text[],
        ${column((o) => o.claimed.attempts)}::int[], ${column((o) => o.recorded.status)}::text[],
        ${column((o) => o.recorded.responseStatus)}::int[], ${column((o) => o.recorded.responseBody)}::text[],
        ${column((o) => o.recorded.error)}::text[], ${column((o) => o.recorded.retryInSeconds)}::float8[],
        ${column((o) => o.recorded.timedOut)}::bool[], ${column((o) => o.recorded.startedAt.toISOString())}::timestamptz[],
        ${column((o) => Math.round(o.recorded.durationMs))}::int[])
        AS v(store_id, id, attempts, status, response_status, response_body, error, retry_in, timed_out, started_at, duration_ms)
    ), written AS (
      UPDATE webhook_deliveries d SET status = v.status, last_response_status = v.response_status,
        last_response_body = v.response_body, last_error = v.error, updated_at = now(),
        next_attempt_at = CASE WHEN v.retry_in IS NULL THEN NULL ELSE now() + make_interval(secs => v.retry_in) END
      FROM outcome v
      WHERE d.store_id = ${storeId} AND v.store_id = ${storeId} AND d.id = v.id AND d.attempts = v.attempts AND d.status = 'pending'
      RETURNING d.store_id, d.id, d.webhook_id, v.attempts, v.status = 'succeeded' AS ok, v.timed_out, v.started_at,
        v.duration_ms, v.response_status, v.response_body, v.error
    ), logged AS (
      INSERT INTO webhook_delivery_attempts AS a
        (store_id, delivery_id, attempt, started_at, duration_ms, response_status, response_body, error)
      SELECT store_id, id, attempts, started_at, duration_ms, response_status, response_body, error FROM written
      ON CONFLICT (store_id, delivery_id, attempt) DO NOTHING
    ), trimmed AS (
      DELETE FROM webhook_delivery_attempts a USING written x
      WHERE a.store_id = ${storeId} AND a.delivery_id = x.id AND a.attempt <= x.attempts - ${KEPT_ATTEMPTS}
    ), health AS (
      SELECT store_id, webhook_id, bool_or(ok) AS ok FROM written GROUP BY store_id, webhook_id
    ), receivers AS (
      SELECT w.store_id, w.url, bool_or(x.ok OR NOT x.timed_out) AS answered, bool_or(x.timed_out) AS timed_out
      FROM written x JOIN webhooks w ON w.store_id = ${storeId} AND w.id = x.webhook_id GROUP BY w.store_id, w.url
    ), touched AS (
      SELECT w.store_id, w.id, h.ok, r.answered, r.timed_out AND NOT r.answered AS timed_out
      FROM receivers r JOIN webhooks w ON w.store_id = ${storeId} AND w.url = r.url
      LEFT JOIN health h ON h.store_id = w.store_id AND h.webhook_id = w.id
    ), updated AS (
      UPDATE webhooks w SET
        failing_since = CASE WHEN t.ok IS NULL THEN w.failing_since WHEN t.ok THEN NULL ELSE COALESCE(w.failing_since, now()) END,
        enabled = CASE WHEN t.ok = false THEN w.enabled AND NOT COALESCE(${stale}, false) ELSE w.enabled END,
        updated_at = CASE WHEN t.ok = false AND w.enabled AND ${stale} THEN now() ELSE w.updated_at END,
        timeouts = CASE WHEN t.answered THEN 0 WHEN t.timed_out THEN w.timeouts + 1 ELSE w.timeouts END,
        paused_until = CASE WHEN t.answered THEN NULL
          WHEN t.timed_out AND w.timeouts + 1 >= ${PAUSE.afterTimeouts} THEN ${pause} ELSE w.paused_until END
      FROM touched t
      WHERE w.store_id = ${storeId} AND w.id = t.id
        AND (t.ok = false OR t.timed_out OR (t.ok AND w.failing_since IS NOT NULL)
          OR (t.answered AND (w.timeouts > 0 OR w.paused_until IS NOT NULL)))
    )
    SELECT count(*)::text AS written FROM written`.execute(db);
  return Number(rows[0]?.written ?? 0);
}

/** When the earliest pending delivery that may go is due (null: none), so the worker sleeps just that long. */
export async function nextDueAt(db: Db): Promise<Date | null> {
  const { rows } = await sql<{ at: Date | null }>`
    SELECT min(greatest(d.next_attempt_at, w.paused_until)) AS at FROM webhook_deliveries d
    JOIN webhooks w ON w.store_id = d.store_id AND w.id = d.webhook_id
    WHERE d.status = 'pending' AND w.enabled AND (d.record_id IS NULL OR NOT EXISTS (
      SELECT 1 FROM webhook_deliveries e
      WHERE e.store_id = d.store_id AND e.webhook_id = d.webhook_id AND e.record_id = d.record_id
        AND e.status = 'pending' AND e.ordinal < d.ordinal))`.execute(db);
  return rows[0]?.at ? new Date(rows[0].at) : null;
}
