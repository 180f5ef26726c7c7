import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext } from '../../../test/helpers.js';
import { csvFixture, csvRow, importCsv, productByHandle, variantOf } from '../../../test/support/csv.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

type Variant = { sku: string; attributes: Record<string, string> };
const skus = (product: { variants: Variant[] }) => product.variants.map((variant) => variant.sku).sort();
const combinations = (product: { variants: Variant[] }) => product.variants.map((variant) => JSON.stringify(variant.attributes)).sort();
const bySku = (product: { variants: Variant[] }) =>
  product.variants.map((variant) => [variant.sku, variant.attributes]).sort(([a], [b]) => String(a).localeCompare(String(b)));

describe("WooCommerce's sample_products.csv: exactly the variations the file has (CONTRACT §10.4)", () => {
  it('7 variations become 7 variants with 7 SKUs: no Hoodie that does not exist, the V-neck’s "any size" no option', async () => {
    const store = await t.newStore();
    const { job, errors, warnings } = await importCsv(t, store, 'products', csvFixture('woocommerce-sample-products.csv'));
    expect(errors).toEqual([]);
    // 18 product rows (parents, simple, grouped, external), 3 lines of variations (V-neck, Hoodie, Hoodie again)
    expect(job).toMatchObject({ status: 'succeeded', total: 21, failed: 0, created: 18, updated: 3, warnings: 0 });
    expect(warnings).toEqual([]);

    const tee = await productByHandle(t, store, 'v-neck-t-shirt');
    // every V-neck variation leaves Size as "any": Size is no option, and stays in customFields
    expect(tee.options).toEqual([{ name: 'Color', values: ['Blue', 'Green', 'Red'] }]);
    expect(tee.customFields).toMatchObject({ 'Attribute 2 name': 'Size', 'Attribute 2 value(s)': 'Large, Medium, Small' });
    expect(skus(tee)).toEqual(['woo-vneck-tee-blue', 'woo-vneck-tee-green', 'woo-vneck-tee-red']);
    expect(variantOf(tee, { Color: 'Blue' })).toMatchObject({ price: 15 });

    const hoodie = await productByHandle(t, store, 'hoodie');
    expect(combinations(hoodie)).toEqual(
      [
        { Color: 'Blue', Logo: 'Yes' },
        { Color: 'Red', Logo: 'No' },
        { Color: 'Green', Logo: 'No' },
        { Color: 'Blue', Logo: 'No' },
      ]
        .map((attributes) => JSON.stringify(attributes))
        .sort(),
    );
    expect(skus(hoodie)).toEqual(['woo-hoodie-blue', 'woo-hoodie-blue-logo', 'woo-hoodie-green', 'woo-hoodie-red']);
    expect(variantOf(hoodie, { Color: 'Red', Logo: 'No' })).toMatchObject({ price: 42, salePrice: 45 });
    const all = [...skus(tee), ...skus(hoodie)];
    expect(new Set(all).size).toBe(7);

    // the same file again: the same products, nothing created, still 7 variants
    const again = await importCsv(t, store, 'products', csvFixture('woocommerce-sample-products.csv'));
    expect(again.job).toMatchObject({ created: 0, failed: 0 });
    expect((await productByHandle(t, store, 'hoodie')).variants).toHaveLength(4);
    expect((await productByHandle(t, store, 'v-neck-t-shirt')).variants).toHaveLength(3);
  });

  it('a dry run reports what the real run does', async () => {
    const file = csvFixture('woocommerce-sample-products.csv');
    const dry = await importCsv(t, await t.newStore(), 'products', file, '&dryRun=true');
    const real = await importCsv(t, await t.newStore(), 'products', file);
    const counters = ({ created, updated, failed, warnings }: Record<string, number>) => ({ created, updated, failed, warnings });
    expect(counters(dry.job)).toEqual(counters(real.job));
    expect([dry.errors, dry.warnings]).toEqual([real.errors, real.warnings]);
  });
});

describe('a variation that leaves "any" an option other variations name', () => {
  const header = ['ID', 'Type', 'SKU', 'Name', 'Regular price', 'Parent', 'Attribute 1 name', 'Attribute 1 value(s)'];
  const file = (rows: string[][]) => [header, ...rows].map((row) => csvRow(row)).join('\n');
  const headerTwo = [...header, 'Attribute 2 name', 'Attribute 2 value(s)'];
  const fileTwo = (rows: string[][]) => [headerTwo, ...rows].map((row) => csvRow(row)).join('\n');

  it('is one variant per value no other variation covers, each SKU made unique with a VALUE_GENERATED warning', async () => {
    const store = await t.newStore();
    const { job, errors, warnings } = await importCsv(
      t,
      store,
      'products',
      fileTwo([
        ['1', 'variable', 'shirt', 'Shirt', '', '', 'Color', 'Red, Blue', 'Size', 'S, M, L'],
        ['2', 'variation', 'shirt-red-s', 'Shirt - Red S', '10', 'id:1', 'Color', 'Red', 'Size', 'S'],
        ['3', 'variation', 'shirt-red', 'Shirt - Red', '11', 'id:1', 'Color', 'Red', 'Size', ''],
        ['4', 'variation', 'shirt-blue-m', 'Shirt - Blue M', '12', 'id:1', 'Color', 'Blue', 'Size', 'M'],
      ]),
    );
    expect(errors).toEqual([]);
    const shirt = await productByHandle(t, store, 'shirt');
    expect(shirt.options).toEqual([
      { name: 'Color', values: ['Red', 'Blue'] },
      { name: 'Size', values: ['S', 'M', 'L'] },
    ]);
    // Red/S is the explicit variation's: "Red, any size" stands for Red/M and Red/L only; no Blue/S, Blue/L
    expect(bySku(shirt)).toEqual([
      ['shirt-blue-m', { Color: 'Blue', Size: 'M' }],
      ['shirt-red-l', { Color: 'Red', Size: 'L' }],
      ['shirt-red-m', { Color: 'Red', Size: 'M' }],
      ['shirt-red-s', { Color: 'Red', Size: 'S' }],
    ]);
    expect(variantOf(shirt, { Color: 'Red', Size: 'L' })).toMatchObject({ price: 11 });
    expect(job.warnings).toBe(2);
    expect(warnings.map((w) => [w.line, w.column, w.code])).toEqual([
      [4, 'SKU', 'VALUE_GENERATED'],
      [4, 'SKU', 'VALUE_GENERATED'],
    ]);
    expect(warnings.map((w) => w.message).join()).toContain('got the SKU "shirt-red-m"');
    expect(warnings.map((w) => w.message).join()).toContain('got the SKU "shirt-red-l"');
  });

  it('a variation without a SKU gets the SKU the store makes, said', async () => {
    const store = await t.newStore();
    const { errors, warnings } = await importCsv(
      t,
      store,
      'products',
      file([
        ['1', 'variable', 'cup', 'Cup', '', '', 'Size', 'S, M'],
        ['2', 'variation', '', 'Cup - S', '5', 'id:1', 'Size', 'S'],
      ]),
    );
    expect(errors).toEqual([]);
    const cup = await productByHandle(t, store, 'cup');
    expect(bySku(cup)).toEqual([['cup-s', { Size: 'S' }]]);
    expect(warnings.map((w) => [w.line, w.code, w.message])).toEqual([
      [3, 'VALUE_GENERATED', `The file gives no SKU: the variant's SKU was made "cup-s"`],
    ]);
  });

  it('a product row seen again after another product is an error of that row; the first stands', async () => {
    const store = await t.newStore();
    const { job, errors } = await importCsv(
      t,
      store,
      'products',
      file([
        ['1', 'simple', 'mug', 'Mug', '5', '', '', ''],
        ['2', 'simple', 'cap', 'Cap', '6', '', '', ''],
        ['1', 'simple', 'mug', 'Mug', '99', '', '', ''],
      ]),
    );
    expect(job).toMatchObject({ created: 2, updated: 0, failed: 1 });
    expect(errors.map((e) => [e.line, e.column, e.code])).toEqual([[4, 'Name', 'VALIDATION_ERROR']]);
    expect((await productByHandle(t, store, 'mug')).price).toBe(5);
  });
});
