import { sql } from 'kysely';
import type { Db } from '../db/index.js';

/** Seconds since the newest event of the feed (any store) was appended, for GET /metrics; null for an empty feed. */
export async function newestEventAgeSeconds(db: Db): Promise<number | null> {
  const row = await db
    .selectFrom('events')
    .select(sql<number | null>`extract(epoch from now() - max(created_at))`.as('age'))
    .executeTakeFirstOrThrow();
  return row.age === null ? null : Math.max(0, Number(row.age));
}
