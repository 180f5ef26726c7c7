/** The public surface of src/db: what other folders may import. */

export type {
  CollectionCondition,
  CustomFields,
  CustomFieldValue,
  DeliveryStatus,
  InventoryBehaviour,
  JobErrorLevel,
  JobStatus,
  ProductOption,
  ReturnConfig,
  StoredCartItem,
  StoredOrderAddress,
  StoredRefund,
  StoredStockMove,
  StoredTrackingInfo,
} from './column-shapes.js';
export type { Database, Db, PoolStats } from './database.js';
export { DataDirLockedError } from './lock-file.js';
export type { Listener, NotificationHandlers } from './notifications.js';
export { openMigratedDatabase } from './open-migrated.js';
export { onPrimary, type ReadReason, type ReadTarget, type ReplicaState, type Replicas, readTargetOf } from './replicas.js';
export { type Savepoint, setSavepoint, type TransactionState } from './savepoint.js';
export type { DB } from './schema.generated.js';
export { afterCommit, literal, withCommit } from './statements/deferred.js';
export { GENERIC_PLAN_MARK, withGenericPlan } from './statements/generic-plan.js';
export type { StatementObserver } from './statements/observed.js';
export { type Tx, withTx } from './transaction.js';
export { lsnText, lsnValue } from './wal-positions.js';
