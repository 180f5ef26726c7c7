import type { Db } from '../db/index.js';
import { type PurgeJob, purgeOnce } from '../shared/index.js';
import { purgeFinishedBatch } from './webhooks.sql.js';

const EVERY_MS = 10 * 60 * 1000;

/**
 * The retention purge of finished deliveries (STOREFRONT_WEBHOOK_DELIVERY_RETENTION_DAYS after their last
 * attempt), run by the shared purge loop like the feed's own. Pending deliveries are kept until they end.
 */
export const deliveryPurge = (db: Db, retentionDays: number): PurgeJob => ({
  name: 'webhook deliveries past retention',
  deleteBatch: (size) => purgeFinishedBatch(db, retentionDays, size),
  everyMs: EVERY_MS,
});

/** One tick of it (tests). */
export const purgeFinishedDeliveries = (db: Db, retentionDays: number) => purgeOnce(deliveryPurge(db, retentionDays).deleteBatch);
