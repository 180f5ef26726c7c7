import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminQuery } from '../../test/support/own-database.js';
import { type BenchTarget, createTarget } from '../database.js';
import { openKeptSeed, saveSeedInfo } from './kept-seed.js';
import type { SeedInfo } from './seed.js';

/**
 * `--database NAME` (kept-seed.ts) measures a kept seed again: the info a kept run saved in its database comes back
 * as it was saved, a database without one is refused by name, and the reused target never drops the database.
 * PostgreSQL only (PGlite's data dir is not reused), when BENCH_DATABASE_URL or TEST_DATABASE_URL is set.
 */

const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)('a kept seed measured again (--database)', () => {
  let target: BenchTarget;
  let name: string;
  const info = { storeId: 'store-1', apiKey: 'sk_kept', counts: { products: 10, customers: 5, orders: 20 }, seconds: { products: 1.5 } };

  beforeAll(async () => {
    target = await createTarget('postgres', serverUrl as string);
    name = new URL(target.databaseUrl as string).pathname.slice(1);
  });

  afterAll(async () => {
    await target?.drop();
  });

  it('refuses a database that holds no kept seed, naming it', async () => {
    await expect(openKeptSeed(serverUrl as string, name)).rejects.toThrow(`database ${name} holds no kept bench seed`);
    await expect(openKeptSeed(serverUrl as string, 'no; drop')).rejects.toThrow('takes a database name');
  });

  it('answers the saved info and media dir, and its drop leaves the database', async () => {
    await saveSeedInfo(target, info as unknown as SeedInfo);
    await saveSeedInfo(target, info as unknown as SeedInfo); // kept once: a second save replaces the first
    await expect(openKeptSeed(serverUrl as string, name, 1_000_000)).rejects.toThrow('holds 10 products, not 1000000');
    const kept = await openKeptSeed(serverUrl as string, name, 10);
    expect(kept.info).toEqual(info);
    expect(kept.target.databaseUrl).toBe(target.databaseUrl);
    expect(kept.target.dataDir).toBe(target.dataDir);
    await kept.target.drop();
    expect(existsSync(target.dataDir)).toBe(true);
    const { rows } = await adminQuery(serverUrl as string, `SELECT count(*)::int AS n FROM pg_database WHERE datname = '${name}'`);
    expect(rows[0].n).toBe(1);
  });
});
