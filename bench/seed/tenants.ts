import { sql } from 'kysely';
import { openDatabase } from '../../src/db/database.js';
import { createStore } from '../../src/stores/index.js';
import { type BenchTarget, SEED_CONNECT_TIMEOUT_MS } from '../database.js';
import { copyIntoStores, rebuildCopiedIndexes } from './clone.js';

/**
 * `--stores N`: the N - 1 other tenants of a seeded bench store, each a set-based copy of its original catalog
 * (clone.ts), added after the bench store is complete. With `--alone` the bench store's database is first copied
 * (BenchTarget.clone) and the tenants go into the copy only, so the store measured among many and the same store
 * alone are the same rows, ids and credentials (its price lists, customers and orders included: the tenants get
 * none of those).
 */

/** Stores created, and batches of copies made, at once: the seed's pool holds 4 connections. */
const AT_ONCE = 4;

async function createTenants(db: Parameters<typeof createStore>[0], count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let first = 1; first <= count; first += AT_ONCE) {
    const numbers = Array.from({ length: Math.min(AT_ONCE, count - first + 1) }, (_, k) => first + k);
    const created = await Promise.all(numbers.map((k) => createStore(db, { slug: `bench-tenant-${k}`, name: `Tenant ${k}` })));
    ids.push(...created.map((store) => store.id));
  }
  return ids;
}

async function timed(seconds: Record<string, number>, phase: string, work: () => Promise<unknown>): Promise<void> {
  const began = performance.now();
  await work();
  seconds[phase] = Math.round((performance.now() - began) / 10) / 100;
  process.stderr.write(`  seeded ${phase} in ${seconds[phase]} s\n`);
}

/**
 * The bench store's database made like one that received copies, before it is cloned (--alone): the copied
 * tables' secondary indexes freshly built, as a load of copies leaves them, and analyzed again (an expression
 * index's statistics go with it). Both sides then differ only by the tenants' rows.
 */
export async function settleAlone(target: BenchTarget): Promise<Record<string, number>> {
  const seconds: Record<string, number> = {};
  const database = await openDatabase({
    databaseUrl: target.databaseUrl,
    dataDir: target.dataDir,
    poolSize: 1,
    connectTimeoutMs: SEED_CONNECT_TIMEOUT_MS,
  });
  try {
    await timed(seconds, 'alone-indexes', () => rebuildCopiedIndexes(database.db));
    await timed(seconds, 'alone-vacuum-analyze', () => sql`VACUUM ANALYZE`.execute(database.db));
  } finally {
    await database.close();
  }
  return seconds;
}

/**
 * `count` stores besides `storeId` in `target`, each holding a copy of the store's `products` original products,
 * then every table analyzed (as after the bench store's own seed). Returns the phases' seconds.
 */
export async function seedTenants(target: BenchTarget, storeId: string, count: number, products: number): Promise<Record<string, number>> {
  const seconds: Record<string, number> = {};
  const database = await openDatabase({
    databaseUrl: target.databaseUrl,
    dataDir: target.dataDir,
    poolSize: AT_ONCE,
    connectTimeoutMs: SEED_CONNECT_TIMEOUT_MS,
  });
  try {
    const db = database.db;
    let stores: string[] = [];
    await timed(seconds, 'tenant-stores', async () => {
      stores = await createTenants(db, count);
    });
    await timed(seconds, 'tenant-copies', () => copyIntoStores(db, storeId, stores, products, AT_ONCE));
    await timed(seconds, 'tenant-vacuum-analyze', () => sql`VACUUM ANALYZE`.execute(db));
  } finally {
    await database.close();
  }
  return seconds;
}
