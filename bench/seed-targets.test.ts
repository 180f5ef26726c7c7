import { sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { type BenchTarget, createTarget } from './database.js';
import { type BenchOptions, parseOptions } from './options.js';
import { seedTargets } from './seed-targets.js';

/**
 * --alone (seed-targets.ts): the store measured among the tenants and the store measured alone must be the same
 * store, row for row, or among/alone measures a difference of data instead of the tenants' cost. Seeded small
 * (1k products, 100 of them through the API's path and the rest copies; 3 stores, each other one a copy of the
 * 100 originals) on PostgreSQL when a server is given (BENCH_DATABASE_URL, else the run's TEST_DATABASE_URL), on
 * PGlite when none is. One engine, not both: the seed and its copies are the same SQL on either, and the engines
 * differ here only in how the store alone is copied (BenchTarget.clone: CREATE DATABASE … TEMPLATE, or a copy of
 * the closed data dir). PGlite's seed runs in the smoke run (bench.smoke.test.ts) and its copies and index
 * rebuilds in clone.test.ts. On PGlite this file cost 33.5 s of CPU (five WASM boots of ~2.7 s, every statement in
 * WASM), on PostgreSQL ~10 s with the backends' (same period, load 6-10).
 */

const serverUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || null;
const engines = [serverUrl ? ('postgres' as const) : ('pglite' as const)];

/** Every table the bench store's reads touch, as one digest of its rows in key order. */
const TABLES = ['products', 'variants', 'product_documents', 'inventory_levels', 'customers', 'orders', 'price_list_prices', 'api_keys'];

interface Shape {
  stores: number;
  products: number;
  digests: Record<string, string>;
}

async function shapeOf(target: BenchTarget, storeId: string): Promise<Shape> {
  const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir, poolSize: 1 });
  try {
    const db = database.db;
    const count = async (query: ReturnType<typeof sql<{ n: number }>>) => (await query.execute(db)).rows[0].n;
    const digests: Record<string, string> = {};
    for (const table of TABLES) {
      const { rows } = await sql<{ digest: string }>`SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest
        FROM ${sql.table(table)} t WHERE t.store_id = ${storeId}`.execute(db);
      digests[table] = rows[0].digest;
    }
    return {
      stores: await count(sql<{ n: number }>`SELECT count(*)::int AS n FROM stores`),
      products: await count(sql<{ n: number }>`SELECT count(*)::int AS n FROM products`),
      digests,
    };
  } finally {
    await database.close();
  }
}

describe.each(engines)('--stores 3 --alone (%s)', (engine) => {
  const created: BenchTarget[] = [];
  afterAll(async () => {
    for (const target of created) await target.drop();
  });

  it('measures the same store among the tenants and alone', { timeout: 600_000 }, async () => {
    const options = parseOptions(['--engine', engine, '--scale', '1k', '--copies-of', '100', '--stores', '3', '--alone'], {
      BENCH_DATABASE_URL: serverUrl ?? undefined,
    }) as BenchOptions;
    // PGlite from the run's migrated template (initdb and the migrations are not what this test is about)
    created.push(await createTarget(engine, options.databaseUrl, inject('pgliteTemplate')));
    const { info, target, alone } = await seedTargets(options, '1k', created[0], created);
    expect(alone).toBe(created[0]);
    expect(target).not.toBe(alone);
    expect(info.shape).toMatchObject({ stores: 3, alone: true });

    const among = await shapeOf(target, info.storeId);
    const single = await shapeOf(alone as BenchTarget, info.storeId);
    expect(single).toMatchObject({ stores: 1, products: 1000 });
    expect(among).toMatchObject({ stores: 3, products: 1200 });
    expect(among.digests).toEqual(single.digests);
    expect(Object.values(single.digests)).not.toContain('d41d8cd98f00b204e9800998ecf8427e'); // md5 of '': a table left empty
  });
});

describe('--alone options', () => {
  it('needs --stores above 1 and excludes --baseline', () => {
    expect(() => parseOptions(['--alone'])).toThrow(/--stores/);
    expect(() => parseOptions(['--alone', '--stores', '2', '--baseline', '/tmp/x'])).toThrow(/--baseline/);
    expect(parseOptions(['--alone', '--stores', '2'])).toMatchObject({ alone: true, stores: 2 });
  });
});
