import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Engine } from './options.js';

/** A fresh, empty place for one bench run's data: its own PostgreSQL database or its own PGlite data dir. */
export interface BenchTarget {
  engine: Engine;
  /** DATABASE_URL of the server under test (null: embedded PGlite) */
  databaseUrl: string | null;
  /** STOREFRONT_DATA_DIR of the server under test (PGlite data, media, secret) */
  dataDir: string;
  /** a human-readable name of what was created, for --keep */
  describe: string;
  drop(): Promise<void>;
}

async function adminQuery(serverUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * Creates `storefront_bench_<time>_<random>` on the server of `serverUrl`: never touches another
 * database, and the name is unique so concurrent runs (or other engineers' tests) never collide.
 */
async function createPostgresDatabase(serverUrl: string): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `storefront_bench_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export async function createTarget(engine: Engine, serverUrl: string | null): Promise<BenchTarget> {
  const dataDir = mkdtempSync(join(tmpdir(), 'storefront-bench-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (engine === 'pglite') {
    return { engine, databaseUrl: null, dataDir, describe: `PGlite data dir ${dataDir}`, drop: async () => removeDir() };
  }
  if (!serverUrl) throw new Error('the postgres engine needs BENCH_DATABASE_URL');
  const database = await createPostgresDatabase(serverUrl);
  return {
    engine,
    databaseUrl: database.url,
    dataDir,
    describe: `PostgreSQL database ${database.name} (and media dir ${dataDir})`,
    drop: async () => {
      removeDir();
      await database.drop();
    },
  };
}
