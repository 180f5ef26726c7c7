import { sql } from 'kysely';
import type { Db } from '../db/index.js';

export interface DeliveryBacklog {
  pending: number;
  failed: number;
  /** seconds since the oldest pending delivery was created; 0 when none is pending */
  oldestPendingSeconds: number;
}

/** The deliveries not yet delivered and those that gave up, across every store, for GET /metrics. */
export async function deliveryBacklog(db: Db): Promise<DeliveryBacklog> {
  const pending = await db
    .selectFrom('webhook_deliveries')
    .select([(eb) => eb.fn.countAll<string>().as('count'), sql<number | null>`extract(epoch from now() - min(created_at))`.as('age')])
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  const failed = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('status', '=', 'failed')
    .executeTakeFirstOrThrow();
  return { pending: Number(pending.count), failed: Number(failed.count), oldestPendingSeconds: Math.max(0, Number(pending.age ?? 0)) };
}
