/** The public surface of src/db: what other folders may import. */
export type { Database, Db } from './database.js';
export { literal, withCommit } from './deferred.js';
export { DataDirLockedError } from './lock-file.js';
export type { Listener, NotificationHandlers } from './notifications.js';
export { openMigratedDatabase } from './open-migrated.js';
export type { DB } from './tables.js';
export { type Tx, withTx } from './transaction.js';
