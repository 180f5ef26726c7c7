import { sql } from 'kysely';
import type { Db, Tx } from '../db/index.js';

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
 * Writes an attempt's outcome, unless the delivery has moved on since the claim (its lease ran out and
 * another attempt was claimed, or it was retried by hand): that attempt's outcome is the one that counts.
 */
export async function recordAttempt(trx: Tx, claimed: Claimed, outcome: Recorded): Promise<boolean> {
  const next = outcome.retryInSeconds === null ? sql`NULL` : sql`now() + make_interval(secs => ${outcome.retryInSeconds})`;
  const result = await sql`
    UPDATE webhook_deliveries SET status = ${outcome.status}, last_response_status = ${outcome.responseStatus},
      last_response_body = ${outcome.responseBody}, last_error = ${outcome.error}, next_attempt_at = ${next}, updated_at = now()
    WHERE store_id = ${claimed.store_id} AND id = ${claimed.id} AND attempts = ${claimed.attempts} AND status = 'pending'`.execute(trx);
  return Number(result.numAffectedRows ?? 0n) > 0;
}

/** A success ends the webhook's failing streak; a failure starts one, and three days of it disable the webhook. */
export async function recordHealth(trx: Tx, claimed: Claimed, succeeded: boolean, disableAfterDays: number): Promise<void> {
  const where = sql`store_id = ${claimed.store_id} AND id = ${claimed.webhook_id}`;
  if (succeeded) {
    await sql`UPDATE webhooks SET failing_since = NULL WHERE ${where} AND failing_since IS NOT NULL`.execute(trx);
    return;
  }
  await sql`
    UPDATE webhooks SET failing_since = COALESCE(failing_since, now()),
      enabled = enabled AND NOT COALESCE(failing_since < now() - make_interval(days => ${disableAfterDays}), false),
      updated_at = CASE WHEN enabled AND failing_since < now() - make_interval(days => ${disableAfterDays}) THEN now() ELSE updated_at END
    WHERE ${where}`.execute(trx);
}

/** When the earliest pending delivery is due (null: none), so the worker sleeps just that long. */
export async function nextDueAt(db: Db): Promise<Date | null> {
  const { rows } = await sql<{ at: Date | null }>`
    SELECT min(d.next_attempt_at) AS at FROM webhook_deliveries d
    JOIN webhooks w ON w.store_id = d.store_id AND w.id = d.webhook_id
    WHERE d.status = 'pending' AND w.enabled`.execute(db);
  return rows[0]?.at ? new Date(rows[0].at) : null;
}
