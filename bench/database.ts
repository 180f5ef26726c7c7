import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOwnDatabase } from '../test/support/own-database.js';
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

export async function createTarget(engine: Engine, serverUrl: string | null): Promise<BenchTarget> {
  const dataDir = mkdtempSync(join(tmpdir(), 'storefront-bench-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (engine === 'pglite') {
    return { engine, databaseUrl: null, dataDir, describe: `PGlite data dir ${dataDir}`, drop: async () => removeDir() };
  }
  if (!serverUrl) throw new Error('the postgres engine needs BENCH_DATABASE_URL');
  // storefront_bench_<time>_<random>: never another database, and concurrent runs never collide.
  const database = await createOwnDatabase(serverUrl, 'storefront_bench');
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
