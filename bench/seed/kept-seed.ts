import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { databaseUrl } from '../../test/support/own-database.js';
import type { BenchTarget } from '../database.js';
import type { SeedInfo } from './seed.js';

/**
 * Seed once, measure many times (issue 42): a million products take most of an hour to seed, minutes to measure.
 * A kept PostgreSQL database (`--keep`, `--seed-only`) carries what the scenarios need to draw their URLs (the
 * SeedInfo: ids, the API key, the console session, the matches) in a schema of its own, `bench_seed`, outside the
 * app's schema (no migration, query or copy of the app's reads it), so `--database NAME` measures it again from
 * any checkout without seeding. The run never drops a database it did not create.
 */

const SCHEMA = 'bench_seed';

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Writes the seed's info (and the media dir the seed wrote into) into the kept database. */
export async function saveSeedInfo(target: BenchTarget, info: SeedInfo): Promise<void> {
  if (!target.databaseUrl) return; // PGlite's data dir is kept as a directory; only PostgreSQL databases are reused
  await withClient(target.databaseUrl, async (client) => {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${SCHEMA}.info (data_dir text NOT NULL, info jsonb NOT NULL)`);
    await client.query(`TRUNCATE ${SCHEMA}.info`);
    await client.query(`INSERT INTO ${SCHEMA}.info (data_dir, info) VALUES ($1, $2)`, [target.dataDir, JSON.stringify(info)]);
  });
}

/**
 * The kept database `name` on the server of `serverUrl` as a bench target, with the info its seed saved, which
 * must be of `products` products when given (the run's scale names its targets and results). Its `drop` removes
 * only a media dir made for this run: the database stays for the next run (drop it by hand).
 */
export async function openKeptSeed(serverUrl: string, name: string, products?: number): Promise<{ target: BenchTarget; info: SeedInfo }> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`--database takes a database name (a-z, 0-9, _), got "${name}"`);
  const url = databaseUrl(serverUrl, name);
  const saved = await withClient(url, async (client) => {
    const found = await client.query<{ data_dir: string; info: SeedInfo }>(`SELECT data_dir, info FROM ${SCHEMA}.info`);
    return found.rows[0];
  }).catch((error: Error) => {
    throw new Error(`database ${name} holds no kept bench seed (seed it with --keep or --seed-only): ${error.message}`);
  });
  if (!saved) throw new Error(`database ${name} holds no kept bench seed (seed it with --keep or --seed-only)`);
  if (products !== undefined && saved.info.counts.products !== products) {
    throw new Error(`database ${name} holds ${saved.info.counts.products} products, not ${products}: pass its --scale`);
  }
  // The seed's media dir when it is still there (nothing the read scenarios serve lives in it), else a fresh one.
  const fresh = !existsSync(saved.data_dir);
  const dataDir = fresh ? mkdtempSync(join(tmpdir(), 'storefront-bench-')) : saved.data_dir;
  const target: BenchTarget = {
    engine: 'postgres',
    databaseUrl: url,
    dataDir,
    describe: `kept PostgreSQL database ${name} (not dropped; media dir ${dataDir})`,
    drop: async () => {
      if (fresh) rmSync(dataDir, { recursive: true, force: true });
    },
    clone: () => Promise.reject(new Error('--alone seeds its own databases: it cannot measure a kept seed (--database)')),
  };
  return { target, info: saved.info };
}
