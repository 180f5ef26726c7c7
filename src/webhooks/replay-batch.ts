import type { Db } from '../db/index.js';
import { type ClaimedReplay, insertFailedReplayed, type ReplayOutcome, recordReplay } from './replays.sql.js';
import type { AttemptOutcome } from './send.js';

export interface ReplaySending {
  db: Db;
  /** one attempt of one event to the replay's webhook */
  send(claimed: ClaimedReplay, eventId: string, payload: string): Promise<AttemptOutcome>;
  /** seconds until the next attempt of a failed one, null: that was its last (the retry schedule) */
  retryIn(outcome: AttemptOutcome, attemptNumber: number): number | null;
  onAttempt?: (outcome: AttemptOutcome, seconds: number) => void;
}

/**
 * Sends one claimed batch of a replay (replays.sql.ts): its events one after the other, in feed order, until
 * the first that fails; then writes how far it got. An event that failed its last attempt leaves its one
 * `failed` delivery row, written after the replay's own row (never both in one statement: see
 * insertFailedReplayed).
 */
export async function sendReplayBatch({ db, send, retryIn, onAttempt }: ReplaySending, claimed: ClaimedReplay): Promise<void> {
  const outcome: ReplayOutcome = { answered: null, count: 0, failed: null };
  let last: AttemptOutcome | null = null;
  for (const [index, event] of claimed.events.entries()) {
    const started = performance.now();
    last = await send(claimed, event.id, event.payload);
    onAttempt?.(last, (performance.now() - started) / 1000);
    if (last.ok) {
      outcome.answered = event;
      outcome.count++;
      continue;
    }
    // the first event may have failed before (the claim counted this attempt); a later one tries for the first time
    const attemptNumber = index === 0 ? claimed.attempts : 1;
    outcome.failed = { event, attempt: attemptNumber, retryInSeconds: retryIn(last, attemptNumber) };
    break;
  }
  const written = await recordReplay(db, claimed, outcome);
  const { failed } = outcome;
  if (written && failed && failed.retryInSeconds === null && last) {
    await insertFailedReplayed(db, claimed, failed.event, {
      attempts: failed.attempt,
      status: last.status,
      body: last.body,
      error: last.error,
    });
  }
}
