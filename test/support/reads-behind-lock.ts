import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Requests that arrive while a read is in flight: `first` starts while a transaction holds `table` locked (on the
 * embedded engine, its one session), so its read waits; then each of `later` starts in a turn of its own. The
 * lock is released once all have had time to reach their reads; the answers come back in the order given.
 */
export async function readsBehindLock<T>(db: Db, table: string, first: () => Promise<T>, later: (() => Promise<T>)[]): Promise<T[]> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let lockTaken = () => {};
  const taken = new Promise<void>((resolve) => {
    lockTaken = resolve;
  });
  const locked = db.transaction().execute(async (trx) => {
    await sql`LOCK TABLE ${sql.table(table)} IN ACCESS EXCLUSIVE MODE`.execute(trx);
    lockTaken();
    await held;
  });
  await taken;
  const answers = [first()];
  await pause(100);
  for (const call of later) {
    answers.push(call());
    await pause(20);
  }
  await pause(200);
  release();
  await locked;
  return Promise.all(answers);
}
