import type { Db } from '../db/index.js';

/** Jobs waiting and running across every store, for GET /metrics (the partial index of runnable jobs answers it). */
export async function countActiveJobs(db: Db): Promise<{ queued: number; running: number }> {
  const rows = await db
    .selectFrom('jobs')
    .select(['status', (eb) => eb.fn.countAll<string>().as('count')])
    .where('status', 'in', ['queued', 'running'])
    .groupBy('status')
    .execute();
  const countOf = (status: string) => Number(rows.find((row) => row.status === status)?.count ?? 0);
  return { queued: countOf('queued'), running: countOf('running') };
}
