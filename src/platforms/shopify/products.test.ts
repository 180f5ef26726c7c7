import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext } from '../../../test/helpers.js';
import { csvFixture, csvRow, importCsv, productByHandle, variantOf } from '../../../test/support/csv.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const IMG = 'https://burst.shopifycdn.com/photos/';

describe('Shopify product CSV, legacy headers (Shopify’s product_template.csv)', () => {
  it('imports options, variants, image rows, a simple product and every other cell as customFields', async () => {
    const store = await t.newStore();
    const { job, errors } = await importCsv(t, store, 'products', csvFixture('shopify-legacy-template.csv'));
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ status: 'succeeded', total: 3, processed: 3, created: 3, updated: 0, failed: 0 });

    const shirt = await productByHandle(t, store, 'example-shirt');
    expect(shirt).toMatchObject({
      title: 'Example T-Shirt',
      description: '<p>This t-shirt is as simple as it gets. Easy to wear and insanely comfortable.</p>',
      vendor: 'Acme',
      productType: 'Shirts',
      tags: ['Made to Order', 'Shirt Tag'],
      status: 'active',
      metaTitle: 'Example T-Shirt | Test Store',
      metaDescription: 'Cotton shirts from our store.',
      options: [
        { name: 'Color', values: ['Green', 'Blue'] },
        { name: 'Size', values: ['S', 'M', 'L'] },
      ],
      sku: null,
    });
    expect(shirt.image).toEqual(
      ['tshirts', 'blank-colored-t-shirts', 'green-t-shirt', 'cobalt-blue-t-shirt', 'grey-t-shirt', 'purple-t-shirt'].map(
        (name) => `${IMG}${name}.jpg?width=1500`,
      ),
    );
    expect(shirt.customFields).toMatchObject({
      // keys of the table's columns have their current header, whichever generation the file used
      'Product category': 'Apparel & Accessories > Clothing > Clothing Tops > T-Shirts',
      'Published on online store': 'TRUE',
      Status: 'active',
      'Gift card': 'FALSE',
      'Google Shopping / Google product category': '212',
      'Google Shopping / Gender': 'male',
      'Google Shopping / Manufacturer part number (MPN)': '3.65275E+11',
      'Included / United States': 'TRUE',
      // per-image cells: <header> #<place of the image in images>
      'Image alt text #1': 'A rack of T-Shirts',
      'Image alt text #2': 'T-Shirt color swatches',
      'Image alt text #6': 'Purple T-Shirt',
    });
    expect(shirt.variants).toHaveLength(6);
    expect(variantOf(shirt, { Color: 'Blue', Size: 'M' })).toMatchObject({
      sku: 'SRT_COT_222',
      price: 25,
      salePrice: null,
      stock: 0,
      barcode: '2.43307E+11',
      weightGrams: 145,
      image: `${IMG}cobalt-blue-t-shirt.jpg?width=1500`,
      customFields: {
        'Continue selling when out of stock': 'deny',
        'Fulfillment service': 'manual',
        'Requires shipping': 'TRUE',
        'Charge tax': 'TRUE',
        'Weight unit for display': 'g',
        // the file gives no tracker: kept as such, so an export invents none
        'Inventory tracker': '',
      },
    });

    const pants = await productByHandle(t, store, 'example-pants');
    // Published FALSE and Status draft: disabled; the cells are kept
    expect(pants).toMatchObject({ status: 'disabled', options: [{ name: 'Size', values: ['28', '30', '40'] }] });
    expect(pants.customFields).toMatchObject({
      'Published on online store': 'FALSE',
      Status: 'draft',
      'Image alt text #4': 'Large tapered stone wash jeans',
    });
    // the image-only row adds the fourth image
    expect(pants.image).toHaveLength(4);
    expect(variantOf(pants, { Size: '30' })).toMatchObject({
      sku: 'PNT_DEN_305',
      stock: 15,
      weightGrams: 283.4952313,
      price: 95,
      // a compare-at price below the price is no sale price here: the cell is kept in customFields
      salePrice: null,
      customFields: { 'Compare-at price': '64.95', 'Inventory tracker': 'shopify', 'Cost per item': '50' },
    });

    const hat = await productByHandle(t, store, 'example-hat');
    // Title / Default Title: a simple product whose own fields are the row's
    expect(hat).toMatchObject({
      options: [],
      variants: [],
      sku: 'HAT_GRY_275',
      price: 17.99,
      comparePrice: 22.99,
      totalStock: 50,
      barcode: '1.22328E+11',
      weightGrams: 72,
      status: 'disabled',
      image: [`${IMG}kids-beanie.jpg?width=1500`],
    });
    expect(hat.customFields).toMatchObject({
      Status: 'archived',
      'Continue selling when out of stock': 'deny',
      'Cost per item': '8.5',
      'Image alt text #1': 'Gray Heather Beanie',
    });
  });

  it('importing the same file again creates nothing and changes nothing', async () => {
    const store = await t.newStore();
    const file = csvFixture('shopify-legacy-template.csv');
    await importCsv(t, store, 'products', file);
    const before = await productByHandle(t, store, 'example-shirt');
    const { job } = await importCsv(t, store, 'products', file);
    expect(job).toMatchObject({ status: 'succeeded', created: 0, updated: 3, failed: 0 });
    const after = await productByHandle(t, store, 'example-shirt');
    expect(after).toEqual(before);
    expect((await t.call(store, 'GET', '/products')).body.pagination.total).toBe(3);
  });
});

describe('Shopify product CSV, current headers', () => {
  it('imports three options, eight variants, image rows, variant images and a metafield column', async () => {
    const store = await t.newStore();
    const { job, errors } = await importCsv(t, store, 'products', csvFixture('shopify-current.csv'));
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ status: 'succeeded', total: 2, created: 2, failed: 0 });

    const shoe = await productByHandle(t, store, 'trail-runner');
    expect(shoe).toMatchObject({
      title: 'Trail Runner',
      // a newline inside a quoted cell
      description: '<p>Light trail shoe.\nGrips on wet rock.</p>',
      tags: ['running', 'trail'],
      status: 'active',
      metaTitle: 'Trail Runner | Acme',
      image: [`${IMG}trail-1.jpg`, `${IMG}trail-2.jpg`, `${IMG}trail-3.jpg`],
      options: [
        { name: 'Color', values: ['Black', 'Blue'] },
        { name: 'Size', values: ['40', '41'] },
        { name: 'Width', values: ['Wide', 'Regular'] },
      ],
    });
    expect(shoe.customFields).toMatchObject({
      'Color (product.metafields.shopify.color-pattern)': 'black; blue',
      'Product category': 'Apparel & Accessories > Shoes',
      'Google Shopping / Gender': 'unisex',
      'Image alt text #1': 'Side view',
      'Image alt text #2': 'Sole',
      'Image alt text #3': 'Top, with laces',
    });
    expect(shoe.variants).toHaveLength(8);
    expect(variantOf(shoe, { Color: 'Black', Size: '40', Width: 'Wide' })).toMatchObject({
      sku: 'TR-BLK-40-W',
      barcode: '0001',
      price: 120,
      salePrice: 150,
      stock: 7,
      weightGrams: 850,
      image: `${IMG}trail-black.jpg`,
      customFields: { 'Cost per item': '55.5', 'Charge tax': 'TRUE', 'Continue selling when out of stock': 'DENY' },
    });
    expect(variantOf(shoe, { Color: 'Blue', Size: '41', Width: 'Regular' })).toMatchObject({
      price: 125,
      stock: 7,
      image: `${IMG}trail-blue.jpg`,
    });

    const wrap = await productByHandle(t, store, 'gift-wrap');
    expect(wrap).toMatchObject({
      status: 'disabled',
      sku: 'WRAP-1',
      price: 4.5,
      comparePrice: 5,
      totalStock: 100,
      weightGrams: 30,
      variants: [],
    });
    expect(wrap.customFields).toMatchObject({ 'Tax code': 'P0000000', 'Google Shopping / Custom label 0': 'promo', Status: 'draft' });
  });

  it('names the record and the column of a bad cell; a bad product never stops the others', async () => {
    const store = await t.newStore();
    const header = ['Title', 'URL handle', 'Option1 name', 'Option1 value', 'Price', 'Inventory quantity', 'Product image URL'];
    const rows = [
      ['Good', 'good', 'Size', 'S', '10', '1', ''],
      ['Bad price', 'bad-price', 'Size', 'S', '10', '1', ''],
      ['', 'bad-price', '', 'M', 'ten', '1', ''],
      ['', 'no-title', 'Title', 'Default Title', '5', '1', ''],
      ['Bad image', 'bad-image', 'Title', 'Default Title', '5', '1', 'not a url'],
      ['Bad stock', 'bad-stock', 'Title', 'Default Title', '5', '-3', ''],
    ];
    const file = [header, ...rows].map((row) => csvRow(row)).join('\n');
    const { job, errors } = await importCsv(t, store, 'products', file);
    expect(job).toMatchObject({ status: 'succeeded', total: 5, created: 1, failed: 4 });
    expect(errors.map((e) => [e.line, e.column, e.code])).toEqual([
      [4, 'Price', 'VALIDATION_ERROR'],
      [5, 'Title', 'VALIDATION_ERROR'],
      [6, 'Product image URL', 'VALIDATION_ERROR'],
      [7, 'Inventory quantity', 'VALIDATION_ERROR'],
    ]);
    expect(errors[0].details[0]).toMatchObject({ field: 'variants[1].price', in: 'body' });
    expect(errors[3].details[0]).toMatchObject({ field: 'totalStock' });
  });
});
