import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(async () => t?.close());

const get = (store: TestStore, url: string) =>
  t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${store.token}` } });

/** The CSV's rows as objects by header, keeping only non-empty cells (every row must have every column). */
function rowsOf(body: string): Record<string, string>[] {
  const rows = parse(body, { columns: true }) as Record<string, string>[];
  return rows.map((row) => Object.fromEntries(Object.entries(row).filter(([, cell]) => cell !== '')));
}

const headerOf = (body: string) => (parse(body, { to_line: 1 }) as string[][])[0];

describe('GET /exports/products?format=shopify', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await t.newStore();
    const tee = await t.call(store, 'POST', '/products', {
      title: 'Tee',
      description: '<p>Soft, "heavy"\ncotton</p>',
      vendor: 'Acme',
      productType: 'Shirts',
      tags: ['summer', 'cotton'],
      metaTitle: 'The tee',
      options: [
        { name: 'Size', values: ['S', 'M'] },
        { name: 'Color', values: ['Red'] },
      ],
      variants: [
        { attributes: { Size: 'S', Color: 'Red' }, sku: 'TEE-S', price: 20, salePrice: 25, stock: 3, barcode: '0001', weightGrams: 180 },
        { attributes: { Size: 'M', Color: 'Red' }, sku: 'TEE-M', price: 21, stock: 0, image: 'https://cdn.example.com/tee-m.jpg' },
      ],
      images: ['https://cdn.example.com/a.jpg', 'https://cdn.example.com/b.jpg', 'https://cdn.example.com/c.jpg'],
      customFields: {
        'Image Alt Text #3': 'the back',
        'Product Category': 'Apparel > Shirts',
        'Fabric (product.metafields.custom.fabric)': 'cotton',
        'woo:meta': 'not a Shopify column',
      },
    });
    expect(tee.status).toBe(201);
    const variantId = tee.body.data.variants[0].id;
    const patched = await t.call(store, 'PATCH', `/products/${tee.body.data.id}/variants/${variantId}`, {
      customFields: { 'Cost per item': '7.5', 'Variant Tax Code': 'P0000000' },
    });
    expect(patched.status).toBe(200);
    const mug = await t.call(store, 'POST', '/products', {
      title: 'Mug',
      sku: 'MUG-1',
      barcode: '4006381333931',
      price: 9.5,
      comparePrice: 12,
      totalStock: 4,
      weightGrams: 350,
      status: 'disabled',
      images: ['https://cdn.example.com/mug.jpg'],
      customFields: { 'Variant Image': 'https://cdn.example.com/mug-v.jpg', Status: 'archived' },
    });
    expect(mug.status).toBe(201);
    const wide = await t.call(store, 'POST', '/products', {
      title: 'Wide',
      options: ['A', 'B', 'C', 'D', 'E'].map((name) => ({ name, values: [`${name.toLowerCase()}1`] })),
    });
    expect(wide.status).toBe(201);
  });

  it('streams text/csv: a header row, then rows per product; X-Total-Count counts products', async () => {
    const reply = await get(store, '/exports/products?format=shopify');
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(reply.headers['content-disposition']).toBe('attachment; filename="shopify-products.csv"');
    expect(reply.headers['x-total-count']).toBe('3');
    const header = headerOf(reply.body);
    expect(header.slice(0, 4)).toEqual(['Title', 'URL handle', 'Description', 'Vendor']);
    expect(header).toContain('Fabric (product.metafields.custom.fabric)');
    expect(header).not.toContain('woo:meta');
    expect(rowsOf(reply.body).map((row) => row['URL handle'])).toEqual(['tee', 'tee', 'tee', 'mug', 'wide']);
  });

  it('a product with options: a row per variant (its image place too), then image rows; fields on the first row', async () => {
    const [s, m, image] = rowsOf((await get(store, '/exports/products?format=shopify')).body);
    expect(s).toEqual({
      Title: 'Tee',
      'URL handle': 'tee',
      Description: '<p>Soft, "heavy"\ncotton</p>',
      Vendor: 'Acme',
      'Product category': 'Apparel > Shirts',
      Type: 'Shirts',
      Tags: 'summer, cotton',
      'Published on online store': 'TRUE',
      Status: 'active',
      'SEO title': 'The tee',
      'Option1 name': 'Size',
      'Option1 value': 'S',
      'Option2 name': 'Color',
      'Option2 value': 'Red',
      SKU: 'TEE-S',
      Barcode: '0001',
      Price: '20',
      'Compare-at price': '25',
      'Cost per item': '7.5',
      'Tax code': 'P0000000',
      'Inventory tracker': 'shopify',
      'Inventory quantity': '3',
      'Weight value (grams)': '180',
      'Product image URL': 'https://cdn.example.com/a.jpg',
      'Image position': '1',
      'Fabric (product.metafields.custom.fabric)': 'cotton',
    });
    expect(m).toEqual({
      'URL handle': 'tee',
      'Option1 value': 'M',
      'Option2 value': 'Red',
      SKU: 'TEE-M',
      Price: '21',
      'Inventory tracker': 'shopify',
      'Inventory quantity': '0',
      'Variant image URL': 'https://cdn.example.com/tee-m.jpg',
      'Product image URL': 'https://cdn.example.com/b.jpg',
      'Image position': '2',
    });
    expect(image).toEqual({
      'URL handle': 'tee',
      'Product image URL': 'https://cdn.example.com/c.jpg',
      'Image position': '3',
      'Image alt text': 'the back',
    });
  });

  it('a simple product is one Title / Default Title row with its own SKU, prices, stock, barcode, grams', async () => {
    const mug = rowsOf((await get(store, '/exports/products?format=shopify')).body)[3];
    expect(mug).toEqual({
      Title: 'Mug',
      'URL handle': 'mug',
      'Option1 name': 'Title',
      'Option1 value': 'Default Title',
      SKU: 'MUG-1',
      Barcode: '4006381333931',
      Price: '9.5',
      'Compare-at price': '12',
      'Inventory tracker': 'shopify',
      'Inventory quantity': '4',
      'Weight value (grams)': '350',
      'Variant image URL': 'https://cdn.example.com/mug-v.jpg',
      'Product image URL': 'https://cdn.example.com/mug.jpg',
      'Image position': '1',
      // disabled: the kept Status says which (archived), and alone: no Published cell the record does not have
      Status: 'archived',
    });
  });

  it('joins the third and later options into Option3 with " / "', async () => {
    const wide = rowsOf((await get(store, '/exports/products?format=shopify')).body)[4];
    expect(wide).toMatchObject({
      'Option1 name': 'A',
      'Option1 value': 'a1',
      'Option2 name': 'B',
      'Option2 value': 'b1',
      'Option3 name': 'C / D / E',
      'Option3 value': 'c1 / d1 / e1',
    });
  });

  it('a disabled product without kept cells is a draft; format=ndjson is the NDJSON export', async () => {
    const other = await t.newStore();
    await t.call(other, 'POST', '/products', { title: 'Hidden', status: 'disabled' });
    expect(rowsOf((await get(other, '/exports/products?format=shopify')).body)[0]).toMatchObject({
      Status: 'draft',
      'Published on online store': 'FALSE',
    });
    const ndjson = await get(other, '/exports/products?format=ndjson');
    expect(ndjson.headers['content-type']).toBe('application/x-ndjson');
    expect(JSON.parse(ndjson.body).title).toBe('Hidden');
  });

  it('an empty store exports the header row alone; updatedSince applies', async () => {
    const empty = await t.newStore();
    const reply = await get(empty, '/exports/products?format=shopify');
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['x-total-count']).toBe('0');
    expect(parse(reply.body)).toHaveLength(1);
    const later = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    expect(parse((await get(store, `/exports/products?format=shopify&updatedSince=${later}`)).body)).toHaveLength(1);
  });

  it('refuses a format it does not know, and format on a resource without a CSV layout', async () => {
    for (const url of ['/exports/products?format=woocommerce', '/exports/collections?format=shopify']) {
      const reply = await t.call(store, 'GET', url);
      expectError(reply, 400, 'VALIDATION_ERROR');
      expect(reply.body.error.details).toEqual([expect.objectContaining({ field: 'format', in: 'query' })]);
    }
  });
});

describe('GET /exports/customers?format=shopify and /exports/orders?format=shopify', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await t.newStore();
    const ada = await t.call(store, 'POST', '/customers', {
      userName: 'ada',
      password: 'password123',
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Example',
      phoneNumber: '+16135550100',
      businessName: 'Example Works, Ltd',
      address: { street: '1 Main St', house: 'Unit 2', city: 'Testville', stateName: 'ON', countryName: 'CA', pincode: '02928' },
      tags: ['vip', '"x"'],
      customFields: { 'Total Spent': '12.50', 'Loyalty tier': 'gold' },
    });
    expect(ada.status).toBe(201);
    const bo = await t.call(store, 'POST', '/customers', { userName: 'bo', password: 'password123' });
    expect(bo.status).toBe(201);
    const order = await t.call(store, 'POST', '/orders', {
      customOrderId: '#1001',
      contactEmail: 'ada@example.com',
      cartItems: [
        { productId: 'p1', title: 'Tee', price: 10, quantity: 2, sku: 'T-1' },
        { productId: 'p2', title: 'Mug', price: 5, quantity: 1 },
      ],
      subTotal: 25,
      totalAmount: 30,
      shippingCharge: 5,
      paymentStatus: 'paid',
      createdAt: '2026-09-03T10:14:00-04:00',
      billingAddress: { firstName: 'Ada', lastName: 'van Example', city: 'London' },
      customFields: { 'Lineitem taxable #2': 'false', 'Vendor #*': 'Acme', 'Discount Code': 'X', 'Gift wrap': 'yes' },
    });
    expect(order.status).toBe(201);
  });

  it('customers: a row each, the default address in Default Address columns, Username, a column per other key', async () => {
    const reply = await get(store, '/exports/customers?format=shopify');
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(headerOf(reply.body).slice(-2)).toEqual(['Username', 'Loyalty tier']);
    expect(rowsOf(reply.body)).toEqual([
      {
        'First Name': 'Ada',
        'Last Name': 'Example',
        Email: 'ada@example.com',
        // text beginning with + is written with a leading apostrophe (spreadsheet safety; Shopify writes phones so too)
        Phone: "'+16135550100",
        'Default Address Company': 'Example Works, Ltd',
        'Default Address Address1': '1 Main St',
        'Default Address Address2': 'Unit 2',
        'Default Address City': 'Testville',
        'Default Address Province Code': 'ON',
        'Default Address Country Code': 'CA',
        'Default Address Zip': '02928',
        'Total Spent': '12.50',
        Tags: 'vip, "x"',
        Username: 'ada',
        'Loyalty tier': 'gold',
      },
      { Username: 'bo' },
    ]);
  });

  it('orders: a row per cart item, the order on the first, Name and Email on each, row keys in their row', async () => {
    const reply = await get(store, '/exports/orders?format=shopify');
    expect(reply.statusCode).toBe(200);
    expect(headerOf(reply.body).at(-1)).toBe('Gift wrap');
    expect(rowsOf(reply.body)).toEqual([
      {
        Name: '#1001',
        Email: 'ada@example.com',
        'Financial Status': 'paid',
        'Fulfillment Status': 'pending',
        Currency: 'USD',
        Subtotal: '25',
        Shipping: '5',
        Total: '30',
        'Discount Code': 'X',
        'Created at': '2026-09-03 14:14:00 +0000',
        'Lineitem quantity': '2',
        'Lineitem name': 'Tee',
        'Lineitem price': '10',
        'Lineitem sku': 'T-1',
        'Billing Name': 'Ada van Example',
        'Billing City': 'London',
        Vendor: 'Acme',
        'Gift wrap': 'yes',
      },
      {
        Name: '#1001',
        Email: 'ada@example.com',
        'Lineitem quantity': '1',
        'Lineitem name': 'Mug',
        'Lineitem price': '5',
        'Lineitem taxable': 'false',
        Vendor: 'Acme',
      },
    ]);
  });
});
