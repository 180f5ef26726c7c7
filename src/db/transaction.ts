import type { Transaction } from 'kysely';
import type { Db } from './database.js';
import type { DB } from './schema.generated.js';

/** A handle that is inside a transaction: functions that rely on row locks take this type, so the compiler refuses a bare `Db`. */
export type Tx = Transaction<DB>;

/** PostgreSQL's "try again" answers: the transaction was chosen as a deadlock victim or lost a serialization race. */
const RETRYABLE_CODES = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 4;

export function isRetryable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && RETRYABLE_CODES.has((error as { code?: string }).code ?? '');
}

const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, 5 * 2 ** attempt + Math.random() * 10));

/**
 * Runs `fn` in a transaction. Re-entrant: inside a transaction it joins it (using the outer `db` there
 * would wait forever on PGlite's single session). The outermost call retries the whole transaction when
 * PostgreSQL picks it as a deadlock or serialization victim, so such a race is never a 500.
 */
export async function withTx<T>(db: Db | Tx, fn: (trx: Tx) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db as Tx);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(fn);
    } catch (error) {
      if (!isRetryable(error) || attempt >= MAX_ATTEMPTS) throw error;
      await pause(attempt);
    }
  }
}
