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
import { seedCatalog } from './catalog.js';
import { copyCatalog } from './clone.js';

/**
 * The set-based copies (clone.ts) hold when every copied document is, byte for byte, the product the service
 * builds from the copied rows, with the ETag etagOfCanonical gives it, and current for its row: then a list or a
 * GET serves a copy exactly as it would serve a product the API wrote. On PGlite, and on PostgreSQL when
 * BENCH_DATABASE_URL is set.
 */

const engines = ['pglite', ...(process.env.BENCH_DATABASE_URL ? ['postgres' as const] : [])] as const;

describe.each(engines)('set-based catalog copies (%s)', (engine) => {
  let target: BenchTarget;
  let database: Awaited<ReturnType<typeof openDatabase>>;
  let db: Db;
  let storeId: string;
  let otherId: string;

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
    await rebuildProductDocuments(db, storeId); // the service's products' documents, as seed.ts writes them
    await copyCatalog(db, { from: storeId, copies: [1, 2].map((n) => ({ n, store: storeId })) });
    await copyCatalog(db, { from: storeId, copies: [{ n: 3, store: otherId }] });
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
});
