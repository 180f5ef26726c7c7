import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { postImport, runnerOf } from '../../test/support/jobs.fixtures.js';
import { type Partitioned, partitionByStore } from '../../test/support/partition-by-store.js';
import { acrossPartitions, errorsOf, PLAN_LOG_DATABASE_SETTINGS, PLAN_LOG_SETTINGS, readsOf } from '../../test/support/partition-reads.js';
import { clusterUnavailable, createThrowawayCluster, type ThrowawayCluster } from '../../test/support/throwaway-cluster.js';
import { walkEverything } from '../../test/support/walk-everything.js';
import { purgeOldEvents } from '../events/index.js';
import { purgeExpiredKeys } from '../idempotency/index.js';
import { purgeFinishedJobs } from '../jobs/index.js';
import { purgeRequestLog } from '../request-log/index.js';
import { purgeFinishedDeliveries } from '../webhooks/purge.js';
import { openMigratedDatabase } from './open-migrated.js';

/**
 * The way to Citus stays open (docs/scaling.md, §5): on a database whose every store-owned table is
 * `PARTITION BY HASH (store_id)` (test/support/partition-by-store.ts, derived from the migrated catalog),
 * the app runs a walkthrough of every operation, job runner and webhook worker included, and the plan of
 * every statement it ran, as it ran (auto_explain with ANALYZE), reads one partition per table. The few
 * statements that look across stores on purpose are named below with their reason, and none of them
 * takes a row lock: a claim locks rows of one store only.
 *
 * On a cluster of its own (auto_explain and a log the test reads are server settings); PostgreSQL only.
 */

/** Statements that read every store on purpose, by a fragment of their text; each must take no row lock. */
const ACROSS_STORES: Record<string, string> = {
  'GROUP BY j.store_id, t.served_at': 'the job runner: which stores have a job waiting, in turn (then one claim per store)',
  'AND store_id <> ': 'the job runner: whether another store has a job waiting (the holder then hands its job back)',
  'SELECT DISTINCT w.store_id FROM webhooks w': 'the webhook worker: which stores have a webhook behind the feed',
  'SELECT store_id, count(*)::int AS n FROM picked': 'the webhook worker: each store’s share of the free slots (then one claim per store)',
  'SELECT store_id, array_agg(id) AS ids': 'the webhook worker: which replays are due (then one claim per store)',
  'SELECT min(greatest(d.next_attempt_at, w.paused_until))': 'the webhook worker: when the next delivery is due',
  // A trigger's transition table holds the rows of the statement that fired it, which is itself checked
  // here (one store's); the planner cannot know that. On Citus the trigger runs on the shard.
  'FROM variants_inserted': 'a trigger joining the variants a statement inserted to their products',
  'FROM variants_deleted': 'a trigger joining the variants a statement deleted to their products',
  'SELECT store_id, id, type, params FROM jobs WHERE': 'the jobs purge: finished jobs past retention, of any stores',
  'SELECT store_id, xid::text AS xid, seq::text AS seq FROM events': 'the events purge: which are past retention',
  "SELECT store_id, id FROM webhook_deliveries WHERE status <> 'pending'": 'the deliveries purge: which finished ones are past retention',
  'SELECT store_id, key FROM idempotency_keys WHERE expires_at': 'the idempotency purge: which keys expired',
  'SELECT s.id FROM stores s WHERE EXISTS': 'the Requests log purge: which stores have requests past its days',
};

const PARTITIONS = 4;
const why =
  engine === 'postgres' ? clusterUnavailable() : 'PGlite: the walkthrough needs a PostgreSQL server of its own (auto_explain, its log)';
if (why) console.warn(`store-partitions.test.ts skipped: ${why}`);

let cluster: ThrowawayCluster;
let partitioned: Partitioned;
let t: TestContext;
let receiver: Server;
let hookUrl: string;

async function alterDatabase(url: string, settings: Record<string, string>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  for (const [name, value] of Object.entries(settings)) await client.query(`ALTER DATABASE postgres SET ${name} = '${value}'`);
  await client.end();
}

/** A new store whose rows land in partition `remainder`. */
async function storeInPartition(remainder: number): Promise<TestStore> {
  for (let tries = 0; tries < 64; tries++) {
    const store = await t.newStore();
    const { rows } = await sql<{ partition: string }>`
      SELECT tableoid::regclass::text AS partition FROM admins WHERE store_id = ${store.id}`.execute(t.database.db);
    if (rows[0].partition === `admins_p${remainder}`) return store;
  }
  throw new Error(`no store landed in partition ${remainder}`);
}

/** Waits until the store has no job queued or running. */
async function jobsDone(store: TestStore): Promise<void> {
  for (let waited = 0; waited < 60_000; waited += 200) {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM jobs WHERE store_id = ${store.id} AND status IN ('queued', 'running')`.execute(t.database.db);
    if (rows[0].n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  if (why) return;
  receiver = createServer((request, response) => request.resume().on('end', () => response.writeHead(204).end()));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  cluster = await createThrowawayCluster(PLAN_LOG_SETTINGS);
  const migrated = await openMigratedDatabase({ databaseUrl: cluster.url, dataDir: cluster.root, dbPoolSize: 1 });
  await migrated.close();
  partitioned = await partitionByStore(cluster.url, PARTITIONS);
  await alterDatabase(cluster.url, PLAN_LOG_DATABASE_SETTINGS);
  process.env.TEST_FILE_DATABASE_URL = cluster.url;
  t = await setupTestApp({ webhookWorker: true, webhookAllowPrivate: true, webhookTimeoutMs: 5000, jobRunner: true, requestLog: true });
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  cluster?.destroy();
});

describe.skipIf(why)('a walkthrough of every operation on tables partitioned by store', () => {
  it('reads one partition per table in every statement', async () => {
    // The store walked through is in the last partition: a statement that scans partitions in order until
    // a LIMIT is met reads every other one first. Another store, in the first, has work of its own meanwhile
    // (an import of several batches, webhook deliveries), so the claims find two stores' rows waiting.
    const store = await storeInPartition(PARTITIONS - 1);
    const other = await storeInPartition(0);
    await t.call(other, 'POST', '/webhooks', { url: hookUrl, events: ['*'] });
    for (const title of ['One', 'Two', 'Three']) await t.call(other, 'POST', '/products', { title, price: 1 });
    const lines = Array.from({ length: 300 }, (_, i) => ({ title: `Other ${i}`, handle: `other-${i}`, price: 1 }));
    expect((await postImport(t, other, 'products', lines)).status).toBe(202);
    const logDir = join(cluster.root, 'data', 'log');
    const failures = await walkEverything(t, store, { hookUrl, runJobs: () => jobsDone(store) });
    await jobsDone(other);
    // the retention purges, which run on timers, once each (the walkthrough is over: they may take its rows)
    const { db } = t.database;
    expect(await purgeFinishedJobs(db, runnerOf(t).kinds, 0)).toBeGreaterThan(0);
    // (with nothing retained, and the store's keys expired, so the per-store deletes run too)
    await sql`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE store_id = ${store.id}`.execute(db);
    expect(await purgeExpiredKeys(db)).toBeGreaterThan(0);
    expect(await purgeOldEvents(db, 0)).toBeGreaterThan(0);
    expect(await purgeFinishedDeliveries(db, 0)).toBeGreaterThan(0);
    await purgeRequestLog(db, new Set([store.id]), 0, 1);
    expect(failures, errorsOf(logDir).join('\n')).toEqual([]);

    // auto_explain's log is written by the server's logger process: wait for the last statement's plan
    const marker = `walkthrough ended ${store.id}`;
    await sql`SELECT ${sql.lit(marker)} AS marker`.execute(t.database.db);
    let reads = readsOf(logDir, partitioned.parentOf);
    for (let waited = 0; waited < 10_000 && !reads.some((r) => r.text.includes(marker)); waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      reads = readsOf(logDir, partitioned.parentOf);
    }

    const onPurpose = (text: string) => Object.keys(ACROSS_STORES).find((fragment) => text.includes(fragment));
    const across = new Map<string, string[]>();
    const locking: string[] = [];
    for (const statement of reads) {
      const tables = acrossPartitions(statement);
      if (tables.length === 0) continue;
      if (!onPurpose(statement.text)) across.set(statement.text, tables);
      else if (statement.locks) locking.push(statement.text);
    }
    expect([...across].map(([text, tables]) => `${tables.join(', ')}: ${text}`)).toEqual([]);
    expect(locking).toEqual([]);
    // each statement named above ran (the list names no statement that is gone)
    expect(Object.keys(ACROSS_STORES).filter((fragment) => !reads.some((r) => r.text.includes(fragment)))).toEqual([]);

    // what was checked: hundreds of statements, reading every partitioned table but one (the walkthrough
    // opens no console page): a table added later must be walked through too
    expect(new Set(reads.map((r) => r.text)).size).toBeGreaterThan(250);
    const touched = new Set(reads.flatMap((r) => [...r.partitions.keys()]));
    expect([...partitioned.tables.keys()].filter((table) => !touched.has(table))).toEqual(['console_sessions']);
  }, 180_000);
});
