import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../../test/helpers.js';
import { csvFixture, csvRow, importCsv, postCsv, productByHandle, variantOf } from '../../../test/support/csv.fixtures.js';
import { runStoreJobsResumed } from '../../../test/support/jobs.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const U = 'https://woocommercecore.mystagingwebsite.com/wp-content/uploads/2017/12/';

async function collection(store: TestStore, handle: string) {
  const all = (await t.call(store, 'GET', '/collections?limit=100')).body.data as ({
    handle: string;
    id: string;
    selectedProducts: string[];
  } & Record<string, unknown>)[];
  const found = all.find((one) => one.handle === handle);
  if (!found) throw new Error(`no collection ${handle}`);
  return found;
}

describe('WooCommerce product CSV (its sample_products.csv)', () => {
  it('imports simple and variable products, their variations, and categories as nested manual collections', async () => {
    const store = await t.newStore();
    const { job, errors } = await importCsv(t, store, 'products', csvFixture('woocommerce-sample.csv'));
    expect(errors).toEqual([]);
    // five products, then two runs of variations (each one line updating its product)
    expect(job).toMatchObject({ status: 'succeeded', total: 7, processed: 7, created: 5, updated: 2, failed: 0 });

    const tee = await productByHandle(t, store, 'v-neck-t-shirt');
    expect(tee).toMatchObject({
      title: 'V-Neck T-Shirt',
      status: 'active',
      image: [`${U}vneck-tee-2.jpg`, `${U}vnech-tee-green-1.jpg`, `${U}vnech-tee-blue-1.jpg`],
      // every variation leaves Size as "any": no option (CONTRACT §10.4); its cells stay in customFields
      options: [{ name: 'Color', values: ['Blue', 'Green', 'Red'] }],
      sku: null,
    });
    expect(tee.customFields).toMatchObject({
      ID: '44',
      Type: 'variable',
      SKU: 'woo-vneck-tee',
      'Weight (lbs)': '.5',
      'Meta: _wpcom_is_markdown': '1',
      'Attribute 2 name': 'Size',
      'Attribute 2 value(s)': 'Large, Medium, Small',
    });
    expect(tee.variants).toHaveLength(3);
    expect(variantOf(tee, { Color: 'Red' })).toMatchObject({ sku: 'woo-vneck-tee-red', price: 20, image: `${U}vneck-tee-2.jpg` });
    expect(variantOf(tee, { Color: 'Blue' })).toMatchObject({ sku: 'woo-vneck-tee-blue', price: 15 });
    expect(variantOf(tee, { Color: 'Red' })?.customFields).toMatchObject({ ID: '76', 'Allow customer reviews?': '0' });

    const hoodie = await productByHandle(t, store, 'hoodie');
    // Sale price set: it is the price, Regular price the compare price
    expect(variantOf(hoodie, { Color: 'Red', Logo: 'No' })).toMatchObject({ sku: 'woo-hoodie-red', price: 42, salePrice: 45, stock: 5 });
    expect(variantOf(hoodie, { Color: 'Blue', Logo: 'No' })).toMatchObject({ price: 45, salePrice: null, stock: 7 });
    // this cut of the file has no Blue/Yes variation: no such variant (the full file's is in variations.test.ts)
    expect(hoodie.variants).toHaveLength(3);
    expect(variantOf(hoodie, { Color: 'Blue', Logo: 'Yes' })).toBeUndefined();

    expect(await productByHandle(t, store, 'hoodie-with-logo')).toMatchObject({
      sku: 'woo-hoodie-with-logo',
      price: 45,
      totalStock: 12,
      // 2 lbs
      weightGrams: 907.185,
      tags: ['warm', 'logo'],
      options: [],
      customFields: { 'Attribute 1 name': 'Color', 'Attribute 1 value(s)': 'Blue', Type: 'simple' },
    });
    expect(await productByHandle(t, store, 'beanie')).toMatchObject({ price: 18, comparePrice: 20, weightGrams: 90.718 });
    const album = await productByHandle(t, store, 'album');
    expect(album.customFields).toMatchObject({ Type: 'simple, downloadable, virtual', 'Download 1 name': 'Single 1' });

    const clothing = await collection(store, 'clothing');
    const hoodies = await collection(store, 'clothing-hoodies');
    expect(clothing).toMatchObject({ title: 'Clothing', parentCollection: null, collectionType: 'manual' });
    expect(hoodies).toMatchObject({ title: 'Hoodies', parentCollection: clothing.id });
    expect([...hoodies.selectedProducts].sort()).toEqual([hoodie.id, (await productByHandle(t, store, 'hoodie-with-logo')).id].sort());
    expect((await collection(store, 'clothing-tshirts')).selectedProducts).toEqual([tee.id]);
    expect((await collection(store, 'music')).selectedProducts).toEqual([album.id]);
    expect((await t.call(store, 'GET', '/collections')).body.pagination.total).toBe(5);

    // again: nothing created, the collections found again by handle
    const again = await importCsv(t, store, 'products', csvFixture('woocommerce-sample.csv'));
    expect(again.job).toMatchObject({ created: 0, updated: 7, failed: 0 });
    expect((await t.call(store, 'GET', '/collections')).body.pagination.total).toBe(5);
    expect(await productByHandle(t, store, 'hoodie')).toEqual(await productByHandle(t, store, 'hoodie'));
  });

  it('a killed job resumes with its variations’ parents known (the file is read again from the start)', async () => {
    const store = await t.newStore();
    const header = ['ID', 'Type', 'SKU', 'Name', 'Regular price', 'Parent', 'Attribute 1 name', 'Attribute 1 value(s)'];
    const rows = [header, ['1', 'variable', 'shirt', 'Shirt', '', '', 'Size', 'S, M']];
    for (let i = 0; i < 150; i++) rows.push([`${100 + i}`, 'simple', `s${i}`, `Simple ${i}`, '5', '', '', '']);
    rows.push(['2', 'variation', 'shirt-m', 'Shirt - M', '9', 'id:1', 'Size', 'M']);
    const posted = await postCsv(t, store, 'products', rows.map((row) => csvRow(row)).join('\n'));
    expect(posted.body.data.total).toBe(152);
    await runStoreJobsResumed(t, store);
    expect((await t.call(store, 'GET', `/jobs/${posted.body.data.id}`)).body.data).toMatchObject({ created: 151, updated: 1, failed: 0 });
    expect(variantOf(await productByHandle(t, store, 'shirt'), { Size: 'M' })).toMatchObject({ sku: 'shirt-m', price: 9 });
    expect((await t.call(store, 'GET', '/products?limit=1')).body.pagination.total).toBe(151);
  });

  it('keeps products of the same Name apart: the later ones get the slug plus their ID; a re-import creates nothing', async () => {
    const store = await t.newStore();
    const file = [
      ['ID', 'Type', 'SKU', 'Name', 'Regular price', 'Parent', 'Attribute 1 name', 'Attribute 1 value(s)'],
      ['10', 'simple', 'mug-white', 'Mug', '8', '', '', ''],
      ['11', 'variable', 'mug-set', 'Mug', '', '', 'Size', 'S, M'],
      ['12', 'variation', 'mug-set-m', 'Mug - M', '9', 'id:11', 'Size', 'M'],
      ['13', 'variation', 'mug-set-s', 'Mug - S', '7', 'mug-set', 'Size', 'S'],
    ]
      .map((row) => csvRow(row))
      .join('\n');
    const dry = await importCsv(t, store, 'products', file, '&dryRun=true');
    expect(dry.job).toMatchObject({ total: 4, created: 2, updated: 2, failed: 0 });
    const { job, errors } = await importCsv(t, store, 'products', file);
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ total: 4, created: 2, updated: 2, failed: 0 });
    // the first keeps the plain slug and is not overwritten by the second
    expect(await productByHandle(t, store, 'mug')).toMatchObject({ sku: 'mug-white', price: 8, options: [] });
    const set = await productByHandle(t, store, 'mug-11');
    expect(set).toMatchObject({ title: 'Mug', customFields: expect.objectContaining({ ID: '11' }) });
    // variations find their parent by id:<ID> and by SKU
    expect(variantOf(set, { Size: 'M' })).toMatchObject({ sku: 'mug-set-m', price: 9 });
    expect(variantOf(set, { Size: 'S' })).toMatchObject({ sku: 'mug-set-s', price: 7 });
    const again = await importCsv(t, store, 'products', file);
    expect(again.job).toMatchObject({ created: 0, updated: 4, failed: 0 });
    expect((await t.call(store, 'GET', '/products?limit=1')).body.pagination.total).toBe(2);
  });

  it('names the Parent cell of a variation whose product is unknown; format=woocommerce names what a file lacks', async () => {
    const store = await t.newStore();
    const file = [
      ['ID', 'Type', 'SKU', 'Name', 'Regular price', 'Parent'],
      ['9', 'variation', 'x-m', 'X - M', '3', 'id:404'],
    ]
      .map((row) => csvRow(row))
      .join('\n');
    const { job, errors } = await importCsv(t, store, 'products', file);
    expect(job).toMatchObject({ failed: 1, created: 0 });
    expect(errors).toEqual([
      expect.objectContaining({
        line: 2,
        column: 'Parent',
        code: 'VALIDATION_ERROR',
        details: [expect.objectContaining({ field: 'parent' })],
      }),
    ]);
    const refused = expectError(
      await postCsv(t, store, 'products', csvFixture('shopify-current.csv'), '&format=woocommerce'),
      400,
      'VALIDATION_ERROR',
    );
    expect(refused.details).toEqual([{ field: 'Name', in: 'body', message: 'missing column (woocommerce products)' }]);
  });
});
