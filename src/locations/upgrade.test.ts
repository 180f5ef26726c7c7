import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { engine } from '../../test/helpers.js';
import { createOwnDatabase } from '../../test/support/own-database.js';
import { type Database, openDatabase } from '../db/database.js';
import { migrate } from '../db/migrate.js';

/**
 * The upgrade of a populated store (CONTRACT §13: "a store that existed before keeps its stock there"): a
 * database migrated up to the migration before locations, with a catalog in it, then migrated as a server
 * start does. Every variant's stock and simple product's totalStock is unchanged, and is now the level of
 * the store's new Default location.
 */

const MIGRATIONS = new URL('../../migrations/', import.meta.url);
const FIRST = '0114_locations';

let database: Database;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  if (engine === 'postgres') {
    const own = await createOwnDatabase(inject('postgresServer'), 'storefront_upgrade');
    database = await openDatabase({ databaseUrl: own.url, dataDir: '' });
    cleanup = own.drop;
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'storefront-upgrade-'));
    database = await openDatabase({ databaseUrl: null, dataDir });
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
  }
  const before = readdirSync(MIGRATIONS)
    .filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file) && file < FIRST)
    .sort();
  await database.db.transaction().execute(async (trx) => {
    await sql`create table schema_migrations (version text primary key, applied_at timestamptz not null default now())`.execute(trx);
    for (const file of before) {
      await sql.raw(readFileSync(new URL(file, MIGRATIONS), 'utf8')).execute(trx);
      await sql`insert into schema_migrations (version) values (${file.replace(/\.sql$/, '')})`.execute(trx);
    }
  });
}, 120_000);
afterAll(async () => {
  await database.close();
  await cleanup();
});

const id = (n: number, kind: string) => `${kind}${n.toString(16).padStart(24 - kind.length, '0')}`;

async function populate(storeId: string): Promise<void> {
  await sql`INSERT INTO stores (id, slug, name) VALUES (${storeId}, ${`s${storeId}`}, 'Old store')`.execute(database.db);
  for (let p = 0; p < 20; p++) {
    const productId = id(p, `${storeId.slice(0, 2)}a`);
    const simple = p % 4 === 0;
    const total = simple ? (p === 8 ? null : p * 3) : 99;
    await sql`INSERT INTO products (store_id, id, title, handle, return_config, options, total_stock, created_at, updated_at)
      VALUES (${storeId}, ${productId}, ${`P${p}`}, ${`p-${p}`}, '{}'::jsonb,
        ${simple ? '[]' : '[{"name":"Size","values":["S","M","L"]}]'}::jsonb, ${total}, now(), now())`.execute(database.db);
    if (simple) continue;
    for (let v = 0; v < 3; v++) {
      await sql`INSERT INTO variants (store_id, id, product_id, position, attributes, stock, created_at, updated_at)
        VALUES (${storeId}, ${id(p * 10 + v, `${storeId.slice(0, 2)}b`)}, ${productId}, ${v}, '{}'::jsonb, ${(p * v) % 7}, now(), now())`.execute(
        database.db,
      );
    }
  }
}

describe('the upgrade of a populated database', () => {
  it('keeps every variant’s stock and simple product’s totalStock, now at the store’s Default location', async () => {
    const stores = [id(1, 'aa'), id(2, 'bb')];
    for (const store of stores) await populate(store);
    const stockBefore = await sql<{ id: string; stock: number }>`SELECT id, stock FROM variants ORDER BY id`.execute(database.db);
    const totalsBefore = await sql<{ id: string; total_stock: number | null }>`SELECT id, total_stock FROM products ORDER BY id`.execute(
      database.db,
    );
    const { applied } = await migrate(database.db);
    expect(applied[0]).toBe(FIRST);
    const stockAfter = await sql<{ id: string; stock: number }>`SELECT id, stock FROM variants ORDER BY id`.execute(database.db);
    const totalsAfter = await sql<{ id: string; total_stock: number | null }>`SELECT id, total_stock FROM products ORDER BY id`.execute(
      database.db,
    );
    expect(stockAfter.rows).toEqual(stockBefore.rows);
    expect(totalsAfter.rows).toEqual(totalsBefore.rows);
    const locations = await sql<{ store_id: string; name: string; is_default: boolean }>`SELECT store_id, name, is_default FROM locations
      ORDER BY store_id`.execute(database.db);
    expect(locations.rows).toEqual(stores.map((store) => ({ store_id: store, name: 'Default', is_default: true })));
    const levels = await sql<{ item_id: string; available: number }>`SELECT l.item_id, l.available FROM inventory_levels l
      JOIN locations c ON c.store_id = l.store_id AND c.id = l.location_id AND c.is_default ORDER BY l.item_id`.execute(database.db);
    const expected = [
      ...stockBefore.rows.filter((row) => row.stock !== 0).map((row) => ({ item_id: row.id, available: row.stock })),
      ...totalsBefore.rows
        .filter((row) => (row.total_stock ?? 0) !== 0 && row.total_stock !== 99)
        .map((row) => ({ item_id: row.id, available: row.total_stock as number })),
    ].sort((a, b) => (a.item_id < b.item_id ? -1 : 1));
    expect(levels.rows).toEqual(expected);
    expect(expected.length).toBeGreaterThan(30);
  });
});
