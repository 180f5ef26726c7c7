import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { csvFixture, importCsv, productByHandle } from '../../test/support/csv.fixtures.js';
import { shopifyProductColumn } from '../platforms/index.js';

/**
 * CONTRACT 10.4's round trip of products: import (either header generation), export in Shopify's layout,
 * import leaves every customFields key and value as it was; the export writes back only cells the record
 * has (no invented inventory tracker or quantity); WooCommerce's Type never leaves as Shopify's Type.
 * From real files: Shopify's product_template.csv (legacy headers), a partner sample (apparel.csv),
 * WooCommerce's sample_products.csv.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(async () => t?.close());

const exportCsv = async (store: TestStore) => {
  const reply = await t.app.inject({
    method: 'GET',
    url: '/api/v1/exports/products?format=shopify',
    headers: { authorization: `Bearer ${store.token}` },
  });
  expect(reply.statusCode).toBe(200);
  return reply.body;
};

type Record_ = Record<string, unknown>;

/** What a product is, without what a store gives it anew (ids, times, collections). */
function portable(product: Record_): Record_ {
  const { id: _id, createdAt: _c, updatedAt: _u, selectedCollection: _s, variants, ...rest } = product;
  return {
    ...rest,
    variants: (variants as Record_[]).map(({ id: _vid, productId: _p, createdAt: _vc, updatedAt: _vu, ...variant }) => variant),
  };
}

const products = async (store: TestStore) => {
  const body = (await t.app.inject({ method: 'GET', url: '/api/v1/exports/products', headers: { authorization: `Bearer ${store.token}` } }))
    .body;
  const lines = body
    .split('\n')
    .filter(Boolean)
    .map((line) => portable(JSON.parse(line)));
  return lines.sort((a, b) => String(a.handle).localeCompare(String(b.handle)));
};

/** Every customFields key of the store's products and variants. */
const keysOf = (records: Record_[]) =>
  new Set(
    records.flatMap((product) => [
      ...Object.keys(product.customFields as Record_),
      ...(product.variants as Record_[]).flatMap((variant) => Object.keys(variant.customFields as Record_)),
    ]),
  );

describe('import → Shopify export → import keeps every customFields key and value', () => {
  it.each(['shopify-legacy-template.csv', 'shopify-partners-apparel.csv', 'shopify-current.csv'])('%s', async (fixture) => {
    const first = await t.newStore();
    const imported = await importCsv(t, first, 'products', csvFixture(fixture));
    expect(imported.errors).toEqual([]);
    const before = await products(first);
    expect(before.length).toBe(imported.job.created);
    // one name per Shopify column, the current header's, whichever generation the file used
    for (const key of keysOf(before)) {
      const entry = shopifyProductColumn(key.replace(/ #\d+$/, ''));
      if (entry) expect([key, key.replace(/ #\d+$/, '')]).toEqual([key, entry.current ?? entry.legacy]);
    }
    if (fixture !== 'shopify-current.csv') expect(keysOf(before)).toContain('Charge tax');
    expect(keysOf(before)).not.toContain('Variant Taxable');

    const exported = await exportCsv(first);
    const second = await t.newStore();
    const again = await importCsv(t, second, 'products', exported);
    expect(again.errors).toEqual([]);
    expect(again.job).toMatchObject({ created: before.length, failed: 0 });
    expect(await products(second)).toEqual(before);
  });
});

/** The export's rows as objects by header. */
const rowsOf = (body: string) => parse(body, { columns: true }) as Record<string, string>[];

describe('the Shopify export writes back only cells the record has', () => {
  it('no tracker is invented for a source without one; a quantity only where there is one', async () => {
    const store = await t.newStore();
    expect((await importCsv(t, store, 'products', csvFixture('shopify-partners-apparel.csv'))).errors).toEqual([]);
    expect((await importCsv(t, store, 'products', csvFixture('shopify-legacy-template.csv'))).errors).toEqual([]);
    const rows = rowsOf(await exportCsv(store));
    const cells = (handle: string) =>
      rows
        .filter((row) => row['URL handle'] === handle && (row.SKU !== '' || row['Option1 value'] !== ''))
        .map((row) => [row['Inventory tracker'], row['Inventory quantity']]);
    // apparel.csv: Variant Inventory Qty 1, no tracker
    expect(cells('ocean-blue-shirt')).toEqual([['', '1']]);
    expect(cells('classic-varsity-top')).toEqual([
      ['', '1'],
      ['', '1'],
      ['', '1'],
    ]);
    // product_template.csv: the shirt has no tracker and a quantity of 0; the pants are tracked by shopify
    expect(new Set(cells('example-shirt').map(String))).toEqual(new Set([',']));
    expect(cells('example-pants').map(([tracker, quantity]) => [tracker, Number(quantity) > 0])).toEqual([
      ['shopify', true],
      ['shopify', true],
      ['shopify', true],
    ]);
    // a product created here has no kept tracker: Storefront counts its stock, so Shopify tracks it
    const made = await t.call(store, 'POST', '/products', { title: 'Made here', sku: 'MADE-1', price: 5, totalStock: 0 });
    expect(made.status).toBe(201);
    const mine = rowsOf(await exportCsv(store)).find((row) => row['URL handle'] === 'made-here');
    expect([mine?.['Inventory tracker'], mine?.['Inventory quantity']]).toEqual(['shopify', '0']);
  });

  it("WooCommerce's Type stays in customFields and never leaves as Shopify's Type", async () => {
    const store = await t.newStore();
    const { errors } = await importCsv(t, store, 'products', csvFixture('woocommerce-sample.csv'));
    expect(errors).toEqual([]);
    const beanie = await productByHandle(t, store, 'beanie');
    const hoodie = await productByHandle(t, store, 'hoodie');
    expect([beanie.productType, beanie.customFields.Type]).toEqual([null, 'simple']);
    expect([hoodie.productType, hoodie.customFields.Type]).toEqual([null, 'variable']);
    const rows = rowsOf(await exportCsv(store));
    expect(rows.length).toBeGreaterThan(4);
    expect(rows.filter((row) => row.Type !== '')).toEqual([]);
    // and a Shopify re-import gives no product a type
    const other = await t.newStore();
    expect((await importCsv(t, other, 'products', await exportCsv(store))).errors).toEqual([]);
    expect((await productByHandle(t, other, 'beanie')).productType).toBeNull();
  });
});
