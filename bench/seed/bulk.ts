import type { Insertable } from 'kysely';
import type { Db } from '../../src/db/database.js';
import type { DB } from '../../src/db/index.js';

/** PostgreSQL binds at most 65,535 parameters per statement; stay under it with some room. */
const MAX_PARAMETERS = 60_000;

/**
 * Multi-row INSERTs of customers and orders (products go through the import's batch applier: catalog.ts)
 * through Kysely, typed by the table types generated from the migrated schema (src/db/), so a column a
 * migration renames or adds breaks this at compile time instead of seeding a stale shape.
 */
export async function insertRows<T extends keyof DB & string>(db: Db, table: T, rows: Insertable<DB[T]>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0] as object).length;
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns));
  for (let start = 0; start < rows.length; start += perStatement) {
    // Kysely cannot relate a generic table name to its row type; the signature above already checks the rows.
    await db
      .insertInto(table)
      .values(rows.slice(start, start + perStatement) as never)
      .execute();
  }
}

/** Runs `makeChunk(start, end)` over [0, count) in chunks, each in its own transaction, reporting progress. */
export async function inChunks(
  db: Db,
  count: number,
  chunkSize: number,
  label: string,
  write: (trx: Db, start: number, end: number) => Promise<void>,
): Promise<void> {
  const began = Date.now();
  let lastReport = began;
  for (let start = 0; start < count; start += chunkSize) {
    const end = Math.min(count, start + chunkSize);
    await db.transaction().execute((trx) => write(trx, start, end));
    if (Date.now() - lastReport > 5000) {
      lastReport = Date.now();
      const rate = Math.round(end / ((lastReport - began) / 1000));
      process.stderr.write(`  ${label}: ${end.toLocaleString('en-US')}/${count.toLocaleString('en-US')} (${rate}/s)\n`);
    }
  }
}
