import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, openTestDatabase } from '../../../test/helpers.js';
import type { Database } from '../database.js';

let database: Database;
let cleanup: () => void;
const table = `stats_probe_${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  ({ database, cleanup } = await openTestDatabase());
  await sql`CREATE TABLE ${sql.table(table)} (store_id text NOT NULL, id text NOT NULL, PRIMARY KEY (store_id, id))`.execute(database.db);
});
afterAll(async () => {
  await sql`DROP TABLE IF EXISTS ${sql.table(table)}`.execute(database.db);
  await database.close();
  cleanup();
});

/** Inserts `count` rows in one statement, through the service's own database handle. */
async function insertRows(from: number, count: number): Promise<void> {
  await sql`INSERT INTO ${sql.table(table)} (store_id, id)
    SELECT 's', 'r' || g FROM generate_series(${from}::int, ${from + count - 1}::int) AS g`.execute(database.db);
}

async function reltuples(): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT reltuples::float8 AS n FROM pg_class WHERE oid = to_regclass(${table})`.execute(
    database.db,
  );
  return Number(rows[0]?.n);
}

describe('statistics keeper', () => {
  it('analyzes a table once enough rows were written to it, and again only when it has doubled', async () => {
    expect(await reltuples()).toBe(-1); // never analyzed
    await insertRows(1, 150);
    await database.stats.settle();
    expect(database.stats.analyzed.get(table)).toBeUndefined(); // below the minimum of rows
    await insertRows(151, 150);
    await database.stats.settle();
    expect(database.stats.analyzed.get(table)).toBe(1);
    expect(await reltuples()).toBe(300);
    await insertRows(301, 250); // 550 < 2 × 300
    await database.stats.settle();
    expect(database.stats.analyzed.get(table)).toBe(1);
    await insertRows(551, 100); // 650 ≥ 2 × 300
    await database.stats.settle();
    expect(database.stats.analyzed.get(table)).toBe(2);
    expect(await reltuples()).toBe(650);
  });

  // PGlite has one session: the keeper's transaction would wait for the lock holder's, so only PostgreSQL has this case.
  it.skipIf(engine === 'pglite')('leaves the ANALYZE to the process that holds the table’s lock', async () => {
    await insertRows(1000, 10); // settle the table's state
    await database.stats.settle();
    const before = database.stats.analyzed.get(table) ?? 0;
    await database.db.connection().execute(async (other) => {
      await sql`BEGIN`.execute(other);
      await sql`SELECT pg_advisory_xact_lock(${0x53544154}, hashtext(${table}))`.execute(other);
      await insertRows(2000, 2000);
      await database.stats.settle();
      expect(database.stats.analyzed.get(table) ?? 0).toBe(before);
      await sql`COMMIT`.execute(other);
    });
  });
});
