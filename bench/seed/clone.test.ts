import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type Db, openDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { createMediaStore } from '../../src/media/backend.js';
import { rebuildProductDocuments } from '../../src/products/products.documents.js';
import { getProductsByIds } from '../../src/products/products.service.js';
import { etagOfCanonical } from '../../src/shared/canonical-json.js';
import { createStore } from '../../src/stores/index.js';
import { type BenchTarget, createTarget } from '../database.js';
import { secondaryIndexes } from './bulk-indexes.js';
import { seedCatalog } from './catalog.js';
import { copyIntoStores, copyWithinStore } from './clone.js';
import { PRICE_LISTS, seedPriceLists } from './price-lists.js';

/**
 * The set-based copies (clone.ts) hold when every copied document is, byte for byte, the product the service
 * builds from the copied rows, with the ETag etagOfCanonical gives it, and current for its row: then a list or a
 * GET serves a copy exactly as it would serve a product the API wrote. On PGlite, and on PostgreSQL when
 * BENCH_DATABASE_URL is set. The copies run with no trigger firing (clone-upkeep.ts): what each trigger keeps is
 * checked here as its rule, over originals and copies alike, and the secondary indexes dropped for the load are
 * back as migrated.
 */

const COPIED_TABLES = ['products', 'variants', 'variant_attribute_values', 'product_documents', 'inventory_levels'];

const engines = ['pglite', ...(process.env.BENCH_DATABASE_URL ? ['postgres' as const] : [])] as const;

describe.each(engines)('set-based catalog copies (%s)', (engine) => {
  let target: BenchTarget;
  let database: Awaited<ReturnType<typeof openDatabase>>;
  let db: Db;
  let storeId: string;
  let otherId: string;
  let indexesBefore: Awaited<ReturnType<typeof secondaryIndexes>>;
  let fixedPrices: number;

  beforeAll(async () => {
    target = await createTarget(engine, process.env.BENCH_DATABASE_URL ?? null);
    database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir, poolSize: 2 });
    db = database.db;
    await migrate(db);
    const config = loadConfig({ STOREFRONT_DATA_DIR: target.dataDir, STOREFRONT_JWT_SECRET: 'x'.repeat(32), LOG_LEVEL: 'silent' });
    const ctx = { media: createMediaStore(config, { db, engine }), config };
    storeId = (await createStore(db, { slug: 'copied', name: 'Copied' })).id;
    otherId = (await createStore(db, { slug: 'other', name: 'Other' })).id;
    // 20 through createProduct, 5 through the import's applier (catalog.ts), as the bench seeds them
    await seedCatalog(
      db,
      storeId,
      Array.from({ length: 25 }, (_, j) => j),
      ctx,
    );
    // Stock in each product's first variant, through the stock triggers (an inventory level each): the copies' levels
    // are then written without them (clone-upkeep.ts). Past the write door, so each product row is written too (its
    // document is then no longer current, and is built again below with the stock).
    await sql`UPDATE variants v SET stock = 3 WHERE v.store_id = ${storeId}
      AND v.position = (SELECT min(w.position) FROM variants w WHERE w.store_id = v.store_id AND w.product_id = v.product_id)`.execute(db);
    await sql`UPDATE products SET updated_at = updated_at WHERE store_id = ${storeId}`.execute(db);
    await rebuildProductDocuments(db, storeId); // the service's products' documents, as seed.ts writes them
    indexesBefore = await secondaryIndexes(db, COPIED_TABLES);
    await copyWithinStore(db, storeId, 25, 75); // copies 1 and 2
    await copyIntoStores(db, storeId, [otherId], 25); // copy 1, in the other store
    fixedPrices = await seedPriceLists(db, storeId); // after the copies, as seed.ts seeds them
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    await target?.drop();
  });

  /** The store's current documents (written for the row's version), by product id. */
  async function documents(store: string) {
    const { rows } = await sql<{ id: string; etag: string; body: string }>`SELECT d.product_id AS id, d.etag, d.body
      FROM product_documents d JOIN products p ON p.store_id = d.store_id AND p.id = d.product_id AND p.xmin = d.written_by
      WHERE d.store_id = ${store}`.execute(db);
    return new Map(rows.map((row) => [row.id, row]));
  }

  it.each([
    ['within the store', () => storeId, 75],
    ['into another store', () => otherId, 25],
  ])('copies %s: each document is the product built from its copied rows', async (_, store, count) => {
    const current = await documents(store());
    const copies = [...current.keys()].filter((id) => id.startsWith('c'));
    expect(current.size).toBe(count);
    expect(copies.length).toBe(store() === storeId ? 50 : 25);
    const built = await getProductsByIds(db, store(), copies);
    expect(built.length).toBe(copies.length);
    for (const product of built) {
      const document = current.get(product.id);
      expect(document?.body).toBe(JSON.stringify(product));
      expect(document?.etag).toBe(etagOfCanonical(document?.body ?? ''));
      expect(product.variants.length).toBe(9);
      expect(product.variants.every((variant) => variant.productId === product.id && variant.id.startsWith(product.id.slice(0, 4)))).toBe(
        true,
      );
    }
  });

  it('gives each copy its own handle and SKUs, found by search like the original', async () => {
    const { rows } = await sql<{ n: number; handles: number }>`SELECT count(*)::int AS n, count(DISTINCT handle)::int AS handles
      FROM products WHERE store_id = ${storeId} AND search_text LIKE '%-c2-%'`.execute(db);
    expect(rows[0]).toEqual({ n: 25, handles: 25 });
    const links = await sql<{ n: number }>`SELECT count(*)::int AS n FROM variant_attribute_values v
      JOIN attribute_values a ON a.store_id = v.store_id AND a.id = v.attribute_value_id WHERE v.store_id = ${otherId}`.execute(db);
    expect(links.rows[0].n).toBe(25 * 9 * 2);
  });

  it('builds the secondary indexes it dropped for the load again, as migrated', async () => {
    expect(indexesBefore.length).toBeGreaterThanOrEqual(20);
    expect(await secondaryIndexes(db, COPIED_TABLES)).toEqual(indexesBefore);
  });

  const bothStores = () => [storeId, otherId];

  it("gives every product the search text its rows make (the trigger's check at commit would change nothing)", async () => {
    const { rows } = await sql<{
      n: number;
      stale: number;
    }>`SELECT count(*)::int AS n, count(*) FILTER (WHERE p.search_text IS DISTINCT FROM
        storefront_product_search_text(p.title, p.handle, p.sku,
          (SELECT string_agg(v.sku, E'\n' ORDER BY v.sku) FROM variants v WHERE v.store_id = p.store_id AND v.product_id = p.id)))::int AS stale
      FROM products p WHERE p.store_id = ANY(${bothStores()}::text[])`.execute(db);
    expect(rows[0]).toEqual({ n: 100, stale: 0 });
  });

  it.each([
    ['within the store', () => storeId],
    ['in another store', () => otherId],
  ])('holds a level at the default location for every item with stock, as the stock triggers write it (%s)', async (_, store) => {
    const { rows } = await sql<{ levels: number; differences: number }>`WITH expected AS (
        SELECT v.id AS item_id, l.id AS location_id, v.product_id, v.id AS variant_id, v.stock AS available
          FROM variants v JOIN locations l ON l.store_id = v.store_id AND l.is_default WHERE v.store_id = ${store()} AND v.stock <> 0
        UNION ALL
        SELECT p.id, l.id, p.id, NULL, p.total_stock FROM products p JOIN locations l ON l.store_id = p.store_id AND l.is_default
          WHERE p.store_id = ${store()} AND p.options = '[]'::jsonb AND coalesce(p.total_stock, 0) <> 0
      ), actual AS (
        SELECT item_id, location_id, product_id, variant_id, available FROM inventory_levels WHERE store_id = ${store()}
      )
      SELECT (SELECT count(*) FROM actual)::int AS levels,
        ((SELECT count(*) FROM (SELECT * FROM expected EXCEPT ALL SELECT * FROM actual) e)
          + (SELECT count(*) FROM (SELECT * FROM actual EXCEPT ALL SELECT * FROM expected) a))::int AS differences`.execute(db);
    expect(rows[0]).toEqual({ levels: store() === storeId ? 75 : 25, differences: 0 });
  });

  // The seed's products have no attribute set: that counter is checked to stay equal, with nothing to count.
  it.each([
    ['products', 'status', true],
    ['attribute_sets', 'status', false],
    ['attributes', null, true],
  ] as const)('counts %s in list_counts as the counter triggers would', async (table, key, rows) => {
    for (const store of bothStores()) {
      const counted = await sql<{ key: string; n: number }>`SELECT key1 AS key, sum(n)::int AS n FROM list_counts
        WHERE store_id = ${store} AND list = ${table} GROUP BY key1 HAVING sum(n) <> 0 ORDER BY key1`.execute(db);
      const keyColumn = key === null ? sql`''` : sql.ref(key);
      const actual = await sql<{ key: string; n: number }>`SELECT ${keyColumn} AS key, count(*)::int AS n FROM ${sql.table(table)}
        WHERE store_id = ${store} GROUP BY 1 ORDER BY 1`.execute(db);
      expect(actual.rows.length > 0).toBe(rows);
      expect(counted.rows).toEqual(actual.rows);
    }
  });

  it('leaves no row whose foreign key points at nothing (no foreign-key trigger checked them)', async () => {
    const { rows } = await sql<Record<string, number>>`SELECT
      (SELECT count(*) FROM variants v WHERE NOT EXISTS (SELECT 1 FROM products p WHERE p.store_id = v.store_id AND p.id = v.product_id))::int AS variants,
      (SELECT count(*) FROM variant_attribute_values l WHERE NOT EXISTS (SELECT 1 FROM variants v WHERE v.store_id = l.store_id AND v.id = l.variant_id)
        OR NOT EXISTS (SELECT 1 FROM attribute_values a WHERE a.store_id = l.store_id AND a.id = l.attribute_value_id))::int AS links,
      (SELECT count(*) FROM inventory_levels l WHERE NOT EXISTS (SELECT 1 FROM products p WHERE p.store_id = l.store_id AND p.id = l.product_id)
        OR NOT EXISTS (SELECT 1 FROM locations c WHERE c.store_id = l.store_id AND c.id = l.location_id)
        OR (l.variant_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM variants v WHERE v.store_id = l.store_id AND v.id = l.variant_id)))::int AS levels,
      (SELECT count(*) FROM products p WHERE p.attribute_set_id IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM attribute_sets s WHERE s.store_id = p.store_id AND s.id = p.attribute_set_id))::int AS products,
      (SELECT count(*) FROM attribute_values v WHERE NOT EXISTS (SELECT 1 FROM attributes a WHERE a.store_id = v.store_id AND a.id = v.attribute_id))::int AS "values",
      (SELECT count(*) FROM product_documents d WHERE NOT EXISTS (SELECT 1 FROM products p WHERE p.store_id = d.store_id AND p.id = d.product_id))::int AS documents`.execute(
      db,
    );
    expect(rows[0]).toEqual({ variants: 0, links: 0, levels: 0, products: 0, values: 0, documents: 0 });
  });

  // price-lists.ts draws an item's two lists from one hash of the item, with no foreign-key trigger firing.
  it('prices every priced item of the store in exactly two different lists, at its price in the list currency', async () => {
    const { rows } = await sql<Record<string, number>>`WITH items AS (
        SELECT id AS item_id, price FROM products WHERE store_id = ${storeId} AND options = '[]'::jsonb
        UNION ALL SELECT id, price FROM variants WHERE store_id = ${storeId}
      ), per_item AS (
        SELECT i.item_id, count(p.item_id) AS n, count(DISTINCT p.price_list_id) AS lists FROM items i
          LEFT JOIN price_list_prices p ON p.store_id = ${storeId} AND p.item_id = i.item_id WHERE i.price IS NOT NULL GROUP BY i.item_id
      ), per_list AS (
        SELECT count(*) AS n FROM price_list_prices WHERE store_id = ${storeId} GROUP BY price_list_id
      )
      SELECT (SELECT count(*) FROM per_item)::int AS items, (SELECT count(*) FROM per_item WHERE n <> 2 OR lists <> 2)::int AS not_two,
        (SELECT count(*) FROM price_list_prices WHERE store_id = ${storeId})::int AS prices,
        (SELECT max(n) FROM per_list)::int AS fullest,
        (SELECT count(*) FROM price_list_prices p JOIN price_lists l ON l.store_id = p.store_id AND l.id = p.price_list_id
          JOIN items i ON i.item_id = p.item_id
          WHERE p.store_id = ${storeId} AND p.price <> round(i.price * CASE l.currency WHEN 'USD' THEN 0.95 WHEN 'EUR' THEN 0.92
            WHEN 'GBP' THEN 0.79 WHEN 'JPY' THEN 150 ELSE 1.36 END, CASE l.currency WHEN 'JPY' THEN 0 ELSE 2 END))::int AS mispriced,
        (SELECT count(*) FROM price_list_prices p WHERE p.store_id = ${storeId}
          AND (NOT EXISTS (SELECT 1 FROM products o WHERE o.store_id = p.store_id AND o.id = p.product_id)
            OR (p.variant_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM variants v WHERE v.store_id = p.store_id AND v.id = p.variant_id AND v.product_id = p.product_id))
            OR NOT EXISTS (SELECT 1 FROM price_lists l WHERE l.store_id = p.store_id AND l.id = p.price_list_id)))::int AS dangling`.execute(
      db,
    );
    const { items, ...rest } = rows[0];
    expect(items).toBeGreaterThan(500); // 75 products of 9 variants
    // ~2% of the items per list: a list holding five times its share would mean the hash's halves are not spread
    expect(rest).toEqual({ not_two: 0, prices: 2 * items, fullest: expect.any(Number), mispriced: 0, dangling: 0 });
    expect(fixedPrices).toBe(2 * items);
    expect(rest.fullest).toBeLessThan((5 * 2 * items) / PRICE_LISTS);
  });
});
