import type { Tx } from '../db/index.js';
import type { NewEvent } from './event-types.js';

/**
 * A write's after-work: what every write does once its own work is done, in its transaction (the events of
 * the feed, the derived changes its work noted, the stored documents of the records it changed). One object,
 * made where the app is made (src/app.ts: `createAfterWork` of src/events with each resource's record kind)
 * and passed in: on the app's context for the write door (`sendWrite`), in the options of every import line
 * and batch (the import engine), and the bench makes its own. Declared here, as the contract between the
 * feed and those who write, so that neither the HTTP plumbing nor a resource's import handler imports the feed.
 */
export interface AfterWork {
  /**
   * Appends the write's own event(s) (a batch of import lines has several; null: only what its work noted)
   * and the derived ones noted during its work, and stores the documents of the kinds that keep them.
   * `last`: nothing of the transaction's work follows but the write door's bookkeeping, so the event INSERT
   * may travel with the COMMIT.
   */
  append(trx: Tx, storeId: string, own: NewEvent | readonly NewEvent[] | null, options?: { last?: boolean }): Promise<void>;
  /**
   * What the transaction's work has noted so far, to be restored by a rollback to a savepoint set now (the
   * savepoint helper of src/db calls it): a rolled-back import line's derived events never reach the next line.
   */
  snapshot(trx: Tx): () => void;
}
