import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { importLines, line } from '../../test/support/product-imports.fixtures.js';
import type { DB } from '../db/index.js';
import { createMediaStore } from '../media/index.js';
import { newId } from '../shared/index.js';
import { importProductBatch } from './products.import-batch.js';
import { createProduct } from './products.service.js';

/**
 * Each product's search text (migrations/0060: title, handle, own SKU and every variant's SKU, lower-cased)
 * is what a product search reads. Every write path must leave it current: after each write here the stored
 * text of every product of the store equals the text computed afresh from its rows, and the API's search
 * finds the product by what it has now and no longer by what it had.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const OPTIONS = [
  { name: 'Size', values: ['S', 'M'] },
  { name: 'Color', values: ['Red', 'Blue'] },
];

/** Products of the store whose stored search text differs from the text their rows give now. */
async function staleTexts(store: TestStore): Promise<string[]> {
  const { rows } = await sql<{ handle: string }>`SELECT p.handle FROM products p
    WHERE p.store_id = ${store.id} AND p.search_text IS DISTINCT FROM storefront_product_search_text(p.title, p.handle, p.sku,
      (SELECT string_agg(v.sku, E'\\n' ORDER BY v.sku) FROM variants v WHERE v.store_id = p.store_id AND v.product_id = p.id))`.execute(
    t.database.db,
  );
  return rows.map((row) => row.handle);
}

/**
 * Rows of products that `write` updated, as its transaction's connection counts them (pg_stat_xact_*: its
 * counts not yet reported, and this transaction's), the check at commit included: an UPDATE of a product
 * row is a second version of it.
 */
async function productUpdatesOf(write: (trx: Transaction<DB>) => Promise<unknown>): Promise<number> {
  return t.database.db.transaction().execute(async (trx) => {
    const counted = async () => {
      const { rows } = await sql<{ n: string }>`SELECT n_tup_upd AS n FROM pg_stat_xact_user_tables WHERE relname = 'products'`.execute(
        trx,
      );
      return Number(rows[0].n);
    };
    const before = await counted();
    await write(trx);
    await sql`SET CONSTRAINTS ALL IMMEDIATE`.execute(trx);
    return (await counted()) - before;
  });
}

async function found(store: TestStore, term: string): Promise<string[]> {
  const reply = await t.call(store, 'GET', `/products?limit=100&sort=title&search=${encodeURIComponent(term)}`);
  expect(reply.status).toBe(200);
  expect(reply.body.pagination.total).toBe(reply.body.data.length);
  return reply.body.data.map((product: { handle: string }) => product.handle);
}

async function expectCurrent(store: TestStore): Promise<void> {
  expect(await staleTexts(store)).toEqual([]);
}

describe('product search text', () => {
  it('stays current through create, PATCH of title, handle, SKU and options, and a variant SKU change', async () => {
    const store = await t.newStore();
    const created = await t.call(store, 'POST', '/products', { title: 'Linen Shirt', price: 30, options: OPTIONS });
    expect(created.status).toBe(201);
    const { id, variants } = created.body.data;
    await expectCurrent(store);
    expect(await found(store, 'LINEN')).toEqual(['linen-shirt']);
    expect(await found(store, variants[0].sku.toUpperCase())).toEqual(['linen-shirt']);

    expect((await t.call(store, 'PATCH', `/products/${id}`, { title: 'Wool Coat' })).status).toBe(200);
    await expectCurrent(store);
    expect(await found(store, 'wool')).toEqual(['linen-shirt']);
    expect(await found(store, 'Shirt')).toEqual(['linen-shirt']); // still in the handle and the SKUs

    expect((await t.call(store, 'PATCH', `/products/${id}`, { handle: 'coat' })).status).toBe(200);
    await expectCurrent(store);
    expect(await found(store, 'coat')).toEqual(['coat']);

    const variant = variants.find((v: { attributes: Record<string, string> }) => v.attributes.Size === 'M' && v.attributes.Color === 'Red');
    const patched = await t.call(store, 'PATCH', `/products/${id}/variants/${variant.id}`, { sku: 'ZX-Unique-9' });
    expect(patched.status).toBe(200);
    await expectCurrent(store);
    expect(await found(store, 'zx-unique')).toEqual(['coat']);
    expect(await found(store, variant.sku)).toEqual([]);

    // regeneration: new option values create variants (with SKUs of their own), vanished ones are deleted
    const options = [
      { name: 'Size', values: ['XL'] },
      { name: 'Color', values: ['Teal'] },
    ];
    expect((await t.call(store, 'PATCH', `/products/${id}`, { options })).status).toBe(200);
    await expectCurrent(store);
    expect(await found(store, 'zx-unique')).toEqual([]);
    const now = (await t.call(store, 'GET', `/products/${id}`)).body.data;
    expect(now.variants).toHaveLength(1);
    expect(await found(store, now.variants[0].sku)).toEqual(['coat']);

    // a simple product's own SKU
    const simple = await t.call(store, 'POST', '/products', { title: 'Gift Card', price: 10, sku: 'GC-Plain-77' });
    expect(simple.status).toBe(201);
    expect(await found(store, 'plain-77')).toEqual(['gift-card']);
    expect((await t.call(store, 'PATCH', `/products/${simple.body.data.id}`, { sku: 'GC-Other-78' })).status).toBe(200);
    await expectCurrent(store);
    expect(await found(store, 'plain-77')).toEqual([]);
    expect(await found(store, 'OTHER-78')).toEqual(['gift-card']);

    expect((await t.call(store, 'DELETE', `/products/${id}`)).status).toBe(200);
    await expectCurrent(store);
    expect(await found(store, 'coat')).toEqual([]);
  });

  it('stays current through an import: new products, and an upsert changing title and SKUs (batch and per line)', async () => {
    for (const mode of ['batch', 'per-line'] as const) {
      const store = await t.newStore();
      const first = await importLines(t, store, [line('alpha'), line('beta')], mode);
      expect(first.errors).toEqual([]);
      await expectCurrent(store);
      expect(await found(store, 'ALPHA-special')).toEqual(['alpha']);

      const changed = line('alpha', 10, {
        title: 'Renamed Thing',
        variants: [{ attributes: { Size: 'M', Color: 'Blue' }, sku: 'QQ-new-sku' }],
      });
      const second = await importLines(t, store, [changed], mode);
      expect(second.errors).toEqual([]);
      expect(second.job.updated).toBe(1);
      await expectCurrent(store);
      expect(await found(store, 'alpha-special')).toEqual([]);
      expect(await found(store, 'qq-NEW')).toEqual(['alpha']);
      expect(await found(store, 'renamed')).toEqual(['alpha']);
    }
  });

  it('stays current when rows are written past the API (bulk INSERTs of a script or a restore)', async () => {
    const store = await t.newStore();
    const id = newId();
    const at = new Date();
    await t.database.db
      .insertInto('products')
      .values({ store_id: store.id, id, title: 'Raw Row', handle: 'raw-row', return_config: '{}', created_at: at, updated_at: at })
      .execute();
    await t.database.db
      .insertInto('variants')
      .values(
        [0, 1].map((position) => ({
          store_id: store.id,
          id: newId(),
          product_id: id,
          position,
          attributes: '{}',
          stock: 0,
          sku: `BULK-${position}`,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
    await expectCurrent(store);
    expect(await found(store, 'bulk-1')).toEqual(['raw-row']);
    // nothing but the database's own computation can set the text
    await sql`UPDATE products SET search_text = 'forged' WHERE store_id = ${store.id}`.execute(t.database.db);
    await expectCurrent(store);
    await sql`DELETE FROM variants WHERE store_id = ${store.id} AND sku = 'BULK-1'`.execute(t.database.db);
    await expectCurrent(store);
    expect(await found(store, 'bulk-1')).toEqual([]);
  });

  it('is written with the created product: one row version, the variants write no second one', async () => {
    const store = await t.newStore();
    const ctx = { media: createMediaStore(t.config, t.database), config: t.config };
    for (const input of [
      { title: 'Once Only', price: 5, options: OPTIONS },
      // a taken slug: the text of the handle the row gets
      { title: 'Once Only', price: 5, options: OPTIONS, variants: [{ attributes: { Size: 'S', Color: 'Red' }, sku: 'Own-Sku-1' }] },
      { title: 'Simple One', price: 5, sku: 'Simple-Sku' },
    ]) {
      const updates = await productUpdatesOf((trx) => createProduct(trx, store.id, input, ctx));
      expect({ input: input.title, updates }).toEqual({ input: input.title, updates: 0 });
      await expectCurrent(store);
    }
    expect(await found(store, 'own-SKU')).toEqual(['once-only-2']);
    expect(await found(store, 'once-only-2-s-red')).toEqual([]);
    expect(await found(store, 'once-only-2-m-red')).toEqual(['once-only-2']);
  });

  it('is written with the products an import batch creates: one row version each', async () => {
    const store = await t.newStore();
    const apply = importProductBatch({ config: t.config, media: createMediaStore(t.config, t.database) });
    // options with an own variant SKU (and generated ones), and a simple product with its own SKU
    const values = [line('batch-a'), line('batch-b', 10, { sku: 'Batch-Simple', options: undefined, variants: undefined })];
    const lines = values.map((value, index) => ({ line: index + 1, value, text: JSON.stringify(value) }));
    let results: unknown[] = [];
    const updates = await productUpdatesOf(async (trx) => {
      results = await apply(trx, store.id, lines, { handling: 'strict', afterWork: t.afterWork });
    });
    expect(results).toEqual(['created', 'created']);
    expect(updates).toBe(0);
    await expectCurrent(store);
    expect(await found(store, 'batch-a-special')).toEqual(['batch-a']);
    expect(await found(store, 'batch-a-l-red')).toEqual(['batch-a']);
    expect(await found(store, 'batch-simple')).toEqual(['batch-b']);
  });

  it('computes again at commit a text an INSERT supplied that is not its rows', async () => {
    const store = await t.newStore();
    const at = new Date();
    const row = (handle: string, text: string) => ({
      store_id: store.id,
      id: newId(),
      title: 'Supplied',
      handle,
      return_config: '{}',
      created_at: at,
      updated_at: at,
      search_text: text,
    });
    await t.database.db
      .insertInto('products')
      .values([row('forged', 'forged'), row('also', 'supplied\nalso')])
      .execute();
    await expectCurrent(store);
    expect(await found(store, 'forged')).toEqual(['forged']);
    // within one transaction: the variants come after the product whose text was supplied without them
    await t.database.db.transaction().execute(async (trx) => {
      const product = row('late', 'supplied\nlate');
      await trx.insertInto('products').values(product).execute();
      await trx
        .insertInto('variants')
        .values({
          store_id: store.id,
          id: newId(),
          product_id: product.id,
          position: 0,
          attributes: '{}',
          stock: 0,
          sku: 'LATE-SKU',
          created_at: at,
          updated_at: at,
        })
        .execute();
    });
    await expectCurrent(store);
    expect(await found(store, 'late-sku')).toEqual(['late']);
  });

  it('matches within one field only: a term with a line break is searched over the fields themselves', async () => {
    const store = await t.newStore();
    expect((await t.call(store, 'POST', '/products', { title: 'Foo', handle: 'bar', price: 1, sku: 'baz' })).status).toBe(201);
    // "foo\nbar" is the search text's first two lines, but no field holds it
    expect(await found(store, 'o\nb')).toEqual([]);
    expect(await found(store, 'foo')).toEqual(['bar']);
    expect((await t.call(store, 'POST', '/products', { title: 'Two\nLines', handle: 'two', price: 1 })).status).toBe(201);
    expect(await found(store, 'O\nl')).toEqual(['two']);
  });
});
