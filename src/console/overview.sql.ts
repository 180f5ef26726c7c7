import { sql } from 'kysely';
import type { Db } from '../db/index.js';

/**
 * What the Overview needs that no API list answers, each bounded whatever the store's size: variants
 * counted up to a cap, the newest event by the events primary key, failing webhooks of the last day.
 */

export const VARIANT_COUNT_CAP = 100_000;

/** The store's variants, counted up to VARIANT_COUNT_CAP + 1 (more reads as "more than the cap"). */
export async function countVariantsCapped(db: Db, storeId: string): Promise<number> {
  const capped = db
    .selectFrom('variants')
    .select(sql`1`.as('one'))
    .where('store_id', '=', storeId)
    .limit(VARIANT_COUNT_CAP + 1);
  const row = await db
    .selectFrom(capped.as('capped'))
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** When the store's newest event committed (a backward step on the events primary key), or null. */
export async function newestEventAt(db: Db, storeId: string): Promise<Date | null> {
  const row = await db
    .selectFrom('events')
    .select('created_at')
    .where('store_id', '=', storeId)
    .orderBy('xid', 'desc')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.created_at ?? null;
}

/** Webhooks with deliveries failed, or failing and retried, in the last 24 hours (at most 20). */
export function failingWebhooks(db: Db, storeId: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', (join) => join.onRef('w.store_id', '=', 'd.store_id').onRef('w.id', '=', 'd.webhook_id'))
    .select(['w.id', 'w.url', (eb) => eb.fn.countAll<string>().as('failing'), (eb) => eb.fn.max('d.updated_at').as('lastAt')])
    .where('d.store_id', '=', storeId)
    .where('d.updated_at', '>', sql<Date>`now() - interval '24 hours'`)
    .where((eb) => eb.or([eb('d.status', '=', 'failed'), eb.and([eb('d.status', '=', 'pending'), eb('d.attempts', '>', 0)])]))
    .groupBy(['w.id', 'w.url'])
    .orderBy('failing', 'desc')
    .limit(20)
    .execute();
}
