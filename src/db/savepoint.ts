import { sql } from 'kysely';
import type { Tx } from './transaction.js';

/**
 * State a transaction's work keeps beside the database's (the after-work's noted changes, src/events): what
 * it holds when a savepoint is set, restored when the transaction rolls back to that savepoint.
 */
export interface TransactionState {
  /** Called as the savepoint is set; the function it returns restores the state to that moment. */
  snapshot(trx: Tx): () => void;
}

/** A savepoint that was set: release it (its work stays) or roll back to it (its work, and what it noted, undone). */
export interface Savepoint {
  release(): Promise<void>;
  rollBack(): Promise<void>;
}

/**
 * Sets a savepoint by name inside a transaction: the part of a write that may be undone on its own (an
 * idempotent write's recorded 4xx, an import line that fails, a dry run's batch). Every state the work
 * keeps beside the database is named here, so a rollback restores it with the rows: no caller has to
 * remember to. Transaction control, not a statement on a table, so it lives with the engines rather than
 * in a folder's `*.sql.ts`.
 */
export async function setSavepoint(trx: Tx, name: string, states: readonly TransactionState[]): Promise<Savepoint> {
  await sql`SAVEPOINT ${sql.id(name)}`.execute(trx);
  const restores = states.map((state) => state.snapshot(trx));
  return {
    release: async () => {
      await sql`RELEASE SAVEPOINT ${sql.id(name)}`.execute(trx);
    },
    rollBack: async () => {
      await sql`ROLLBACK TO SAVEPOINT ${sql.id(name)}`.execute(trx);
      for (const restore of restores) restore();
    },
  };
}
