import { sql } from 'kysely';
import type { Tx } from './transaction.js';

/**
 * Savepoints by name, inside a transaction: the part of a write that may be undone on its own (an
 * idempotent write's recorded 4xx, an import line that fails, a dry run's batch). Transaction control, not a
 * statement on a table, so it lives with the engines rather than in a folder's `*.sql.ts`.
 */
export const savepoint = {
  set: (trx: Tx, name: string) => sql`SAVEPOINT ${sql.id(name)}`.execute(trx),
  rollbackTo: (trx: Tx, name: string) => sql`ROLLBACK TO SAVEPOINT ${sql.id(name)}`.execute(trx),
  release: (trx: Tx, name: string) => sql`RELEASE SAVEPOINT ${sql.id(name)}`.execute(trx),
};
