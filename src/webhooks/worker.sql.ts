import { sql } from 'kysely';
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

/**
 * Claims up to `limit` due deliveries of enabled webhooks, across stores, in one short statement: rows
 * another process is claiming are skipped, and each claimed row's next_attempt_at moves to the end of a
 * lease. Until the lease ends no process claims it again; if this process dies mid-attempt, the lease runs
 * out and the attempt is retried.
 */
export async function claimDue(db: Db, limit: number, leaseSeconds: number): Promise<Claimed[]> {
  const { rows } = await sql<Claimed>`
    WITH due AS (
      SELECT d.store_id, d.id FROM webhook_deliveries d
      JOIN webhooks w ON w.store_id = d.store_id AND w.id = d.webhook_id
      WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND w.enabled
      ORDER BY d.next_attempt_at LIMIT ${limit}
      FOR UPDATE OF d SKIP LOCKED
    )
    UPDATE webhook_deliveries d
    SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => ${leaseSeconds}), updated_at = now()
    FROM due, webhooks w
    WHERE d.store_id = due.store_id AND d.id = due.id AND w.store_id = d.store_id AND w.id = d.webhook_id
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
}

/**
 * Writes the outcomes of finished attempts, in one statement whatever their number (the worker records
 * what finished while its previous write ran). An outcome is written only if its delivery is still at that
 * attempt (its lease ran out and another attempt was claimed, or it was retried by hand: that attempt's
 * outcome is the one that counts). For the webhooks of the written outcomes, a success ends the failing
 * streak; only failures start one, and three days of it disable the webhook. Returns how many were written.
 */
export async function recordAttempts(
  db: Db,
  outcomes: { claimed: Claimed; recorded: Recorded }[],
  disableAfterDays: number,
): Promise<number> {
  const column = <T>(pick: (o: (typeof outcomes)[number]) => T) => outcomes.map(pick);
  const stale = sql`w.failing_since < now() - make_interval(days => ${disableAfterDays})`;
  const { rows } = await sql<{ written: string }>`
    WITH outcome AS (
      SELECT * FROM unnest(${column((o) => o.claimed.store_id)}::text[], ${column((o) => o.claimed.id)}::text[],
        ${column((o) => o.claimed.attempts)}::int[], ${column((o) => o.recorded.status)}::text[],
        ${column((o) => o.recorded.responseStatus)}::int[], ${column((o) => o.recorded.responseBody)}::text[],
        ${column((o) => o.recorded.error)}::text[], ${column((o) => o.recorded.retryInSeconds)}::float8[])
        AS v(store_id, id, attempts, status, response_status, response_body, error, retry_in)
    ), written AS (
      UPDATE webhook_deliveries d SET status = v.status, last_response_status = v.response_status,
        last_response_body = v.response_body, last_error = v.error, updated_at = now(),
        next_attempt_at = CASE WHEN v.retry_in IS NULL THEN NULL ELSE now() + make_interval(secs => v.retry_in) END
      FROM outcome v
      WHERE d.store_id = v.store_id AND d.id = v.id AND d.attempts = v.attempts AND d.status = 'pending'
      RETURNING d.store_id, d.webhook_id, v.status = 'succeeded' AS ok
    ), health AS (
      SELECT store_id, webhook_id, bool_or(ok) AS ok FROM written GROUP BY store_id, webhook_id
    ), healed AS (
      UPDATE webhooks w SET failing_since = NULL FROM health h
      WHERE h.ok AND w.store_id = h.store_id AND w.id = h.webhook_id AND w.failing_since IS NOT NULL
    ), failing AS (
      UPDATE webhooks w SET failing_since = COALESCE(w.failing_since, now()),
        enabled = w.enabled AND NOT COALESCE(${stale}, false),
        updated_at = CASE WHEN w.enabled AND ${stale} THEN now() ELSE w.updated_at END
      FROM health h
      WHERE NOT h.ok AND w.store_id = h.store_id AND w.id = h.webhook_id
    )
    SELECT count(*)::text AS written FROM written`.execute(db);
  return Number(rows[0]?.written ?? 0);
}

/** When the earliest pending delivery is due (null: none), so the worker sleeps just that long. */
export async function nextDueAt(db: Db): Promise<Date | null> {
  const { rows } = await sql<{ at: Date | null }>`
    SELECT min(d.next_attempt_at) AS at FROM webhook_deliveries d
    JOIN webhooks w ON w.store_id = d.store_id AND w.id = d.webhook_id
    WHERE d.status = 'pending' AND w.enabled`.execute(db);
  return rows[0]?.at ? new Date(rows[0].at) : null;
}
