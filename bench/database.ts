import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOwnDatabase } from '../test/support/own-database.js';
import type { Engine } from './options.js';

/** A fresh, empty place for one bench run's data: its own PostgreSQL database or its own PGlite data dir. */
/**
 * How long a seed waits for a PostgreSQL connection: a seed's pool opens connections while its own copies
 * write gigabytes, and on a busy machine a new backend took longer than the server's 5 s (a 1,000-store seed
 * failed half-way with "timeout exceeded when trying to connect"). A seed is a batch job: it waits.
 */
export const SEED_CONNECT_TIMEOUT_MS = 120_000;

export interface BenchTarget {
  engine: Engine;
  /** DATABASE_URL of the server under test (null: embedded PGlite) */
  databaseUrl: string | null;
  /** STOREFRONT_DATA_DIR of the server under test (PGlite data, media, secret) */
  dataDir: string;
  /** a human-readable name of what was created, for --keep */
  describe: string;
  drop(): Promise<void>;
  /**
   * Another target holding a copy of this one's data as it is now (nothing may be connected to it): PostgreSQL's
   * CREATE DATABASE … TEMPLATE, a copy of the data dir. The same rows, ids and credentials on both sides (--alone).
   */
  clone(): Promise<BenchTarget>;
}

const newDataDir = () => mkdtempSync(join(tmpdir(), 'storefront-bench-'));

function pgliteTarget(dataDir: string): BenchTarget {
  return {
    engine: 'pglite',
    databaseUrl: null,
    dataDir,
    describe: `PGlite data dir ${dataDir}`,
    drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    clone: async () => {
      const copy = newDataDir();
      cpSync(dataDir, copy, { recursive: true });
      return pgliteTarget(copy);
    },
  };
}

async function postgresTarget(serverUrl: string, dataDir: string, template?: string): Promise<BenchTarget> {
  // storefront_bench_<time>_<random>: never another database, and concurrent runs never collide.
  const database = await createOwnDatabase(serverUrl, 'storefront_bench', template);
  return {
    engine: 'postgres',
    databaseUrl: database.url,
    dataDir,
    describe: `PostgreSQL database ${database.name} (and media dir ${dataDir})`,
    drop: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      await database.drop();
    },
    clone: async () => {
      const copy = newDataDir();
      cpSync(dataDir, copy, { recursive: true });
      return postgresTarget(serverUrl, copy, database.name);
    },
  };
}

/**
 * A new, empty target. On PGlite, `pgliteTemplate` (default: BENCH_PGLITE_TEMPLATE) is a migrated data dir that
 * the target starts as a copy of, no rows in it: the tests pass their run's template (test/global-setup.ts), since
 * initdb and the migrations cost ~10 s of CPU for every database a smoke run makes (minutes on a busy machine).
 * Without one, the first open runs initdb and the seed or server migrates, as a user's run does.
 */
export async function createTarget(
  engine: Engine,
  serverUrl: string | null,
  pgliteTemplate = process.env.BENCH_PGLITE_TEMPLATE,
): Promise<BenchTarget> {
  const dataDir = newDataDir();
  if (engine === 'pglite') {
    if (pgliteTemplate) cpSync(pgliteTemplate, dataDir, { recursive: true });
    return pgliteTarget(dataDir);
  }
  if (!serverUrl) {
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error('the postgres engine needs BENCH_DATABASE_URL');
  }
  return postgresTarget(serverUrl, dataDir);
}
