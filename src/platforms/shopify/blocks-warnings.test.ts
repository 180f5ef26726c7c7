import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext } from '../../../test/helpers.js';
import { csvFixture, csvRow, importCsv, productByHandle } from '../../../test/support/csv.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const HEADER = ['Handle', 'Title', 'Option1 Name', 'Option1 Value', 'Option2 Name', 'Option2 Value', 'Variant SKU', 'Variant Price'];
const file = (rows: (string | number)[][]) => [HEADER, ...rows].map((row) => csvRow(row)).join('\n');
type Variant = { sku: string; attributes: Record<string, string> };

describe('Shopify products: one block per product (CONTRACT §10.4)', () => {
  it('rows of a handle seen again after another product are an error of those rows; the first block stands', async () => {
    const store = await t.newStore();
    const sizes = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];
    const twelve = ['Red', 'Blue'].flatMap((color) =>
      sizes.map((size, i) => ['tee', i === 0 && color === 'Red' ? 'Tee' : '', 'Color', color, 'Size', size, `tee-${color}-${size}`, 10]),
    );
    twelve[0][4] = 'Size';
    const { job, errors } = await importCsv(
      t,
      store,
      'products',
      file([...twelve, ['mug', 'Mug', 'Title', 'Default Title', '', '', 'mug-1', 5], ['tee', 'Tee', 'Color', 'Red', 'Size', 'XS', 'x', 1]]),
    );
    expect(job).toMatchObject({ status: 'succeeded', total: 3, created: 2, updated: 0, failed: 1 });
    expect(errors.map((e) => [e.line, e.column, e.code])).toEqual([[15, 'Handle', 'VALIDATION_ERROR']]);
    expect(errors[0].details[0].message).toContain('line 2');
    const tee = await productByHandle(t, store, 'tee');
    expect(tee.variants).toHaveLength(12);
    expect(tee.variants.find((v: Variant) => v.attributes.Size === 'XS' && v.attributes.Color === 'Red')).toMatchObject({
      price: 10,
      sku: 'tee-Red-XS',
    });
  });

  it('a dry run reports the same', async () => {
    const body = file([
      ['a', 'A', 'Size', 'S', '', '', 'a-s', 1],
      ['b', 'B', 'Size', 'S', '', '', 'b-s', 1],
      ['a', 'A', 'Size', 'M', '', '', 'a-m', 1],
    ]);
    const dry = await importCsv(t, await t.newStore(), 'products', body, '&dryRun=true');
    const real = await importCsv(t, await t.newStore(), 'products', body);
    expect(dry.job).toMatchObject({ created: 2, failed: 1 });
    expect(real.job).toMatchObject({ created: 2, failed: 1 });
    expect(dry.errors).toEqual(real.errors);
  });
});

describe('Shopify products: exactly the variants the rows list', () => {
  it('a shirt sold in Red/S, Red/M and Blue/M has those three, not Blue/S', async () => {
    const store = await t.newStore();
    const { errors } = await importCsv(
      t,
      store,
      'products',
      file([
        ['shirt', 'Shirt', 'Color', 'Red', 'Size', 'S', 'sh-rs', 10],
        ['shirt', '', '', 'Red', '', 'M', 'sh-rm', 10],
        ['shirt', '', '', 'Blue', '', 'M', 'sh-bm', 10],
      ]),
    );
    expect(errors).toEqual([]);
    const shirt = await productByHandle(t, store, 'shirt');
    expect(shirt.variants.map((v: Variant) => v.sku).sort()).toEqual(['sh-bm', 'sh-rm', 'sh-rs']);
    expect(shirt.options).toEqual([
      { name: 'Color', values: ['Red', 'Blue'] },
      { name: 'Size', values: ['S', 'M'] },
    ]);
  });
});

describe('Shopify products: warning rows (CONTRACT §10.4)', () => {
  it('a handle made a slug is VALUE_CHANGED with both values; a SKU made up is VALUE_GENERATED', async () => {
    const store = await t.newStore();
    const { job, errors, warnings } = await importCsv(
      t,
      store,
      'products',
      file([
        ['canasto-360º', 'Canasto 360', 'Title', 'Default Title', '', '', 'c-360', 20],
        ['cup', 'Cup', 'Size', 'S', '', '', '', 5],
        ['cup', '', '', 'M', '', '', 'cup-m', 5],
      ]),
    );
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ created: 2, warnings: 2 });
    expect(warnings.map((w) => [w.line, w.column, w.code, w.details[0].field])).toEqual([
      [2, 'Handle', 'VALUE_CHANGED', 'handle'],
      [3, 'Variant SKU', 'VALUE_GENERATED', 'variants[0].sku'],
    ]);
    expect(warnings[0].message).toBe('The handle "canasto-360º" was made the slug "canasto-360"');
    expect(warnings[1].message).toContain('"cup-s"');
    expect((await productByHandle(t, store, 'canasto-360')).sku).toBe('c-360');
    const cup = await productByHandle(t, store, 'cup');
    expect(cup.variants.map((v: Variant) => v.sku).sort()).toEqual(['cup-m', 'cup-s']);
  });

  it('a handle cut to its 255 characters is VALUE_TRIMMED', async () => {
    const store = await t.newStore();
    const long = `${'a'.repeat(250)}-${'b'.repeat(20)}`;
    const { errors, warnings } = await importCsv(t, store, 'products', file([[long, 'Long', 'Title', 'Default Title', '', '', 'l-1', 1]]));
    expect(errors).toEqual([]);
    const cut = `${'a'.repeat(250)}-bbbb`;
    expect(warnings.map((w) => [w.line, w.column, w.code, w.message])).toEqual([
      [2, 'Handle', 'VALUE_TRIMMED', `The handle "${long}" was cut to 255 characters: "${cut}"`],
    ]);
    expect((await productByHandle(t, store, cut)).title).toBe('Long');
  });

  it("Shopify's partner sample (apparel.csv, no SKUs): one VALUE_GENERATED per variant, the same in a dry run", async () => {
    const body = csvFixture('shopify-partners-apparel.csv');
    const real = await importCsv(t, await t.newStore(), 'products', body);
    const dry = await importCsv(t, await t.newStore(), 'products', body, '&dryRun=true');
    expect(real.errors).toEqual([]);
    const generated = real.warnings.filter((w) => w.code === 'VALUE_GENERATED');
    expect(generated.length).toBeGreaterThan(0);
    expect(real.job.warnings).toBe(real.warnings.length);
    expect([dry.job.warnings, dry.warnings]).toEqual([real.job.warnings, real.warnings]);
  });

  it('warnings never push out errors: the 1,000 rows a job keeps count errors first', async () => {
    const store = await t.newStore();
    // 1,000 variants without a SKU (1,000 warnings), then a product refused
    const rows: (string | number)[][] = [];
    for (let i = 0; i < 1000; i++) rows.push(['many', i === 0 ? 'Many' : '', i === 0 ? 'Size' : '', `S${i}`, '', '', '', 1]);
    rows.push(['bad', 'Bad', 'Title', 'Default Title', '', '', 'b', 'not a price']);
    const { job, errors, warnings } = await importCsv(t, store, 'products', file(rows));
    expect(job).toMatchObject({ created: 1, failed: 1, warnings: 1000 });
    expect(errors.map((e) => [e.line, e.column])).toEqual([[1002, 'Variant Price']]);
    expect(warnings).toHaveLength(999);
  });
});
