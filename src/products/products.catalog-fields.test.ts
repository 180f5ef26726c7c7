import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { feedOf } from '../../test/support/feed.fixtures.js';
import { canonicalJson, etagOf } from '../shared/canonical-json.js';
import { storedProduct } from './product-documents.sql.js';
import { getProduct } from './products.service.js';

/**
 * The catalog fields a migration carries (docs/products.md, "Catalog fields"): vendor, productType, tags,
 * customFields, a simple product's own sku/barcode/weightGrams, a variant's barcode/weightGrams/image/
 * customFields. Every write leaves a stored document equal to the product built from its rows.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
}, 180_000);
afterAll(() => t.close());

async function expectCurrentDocument(store: TestStore, id: string): Promise<void> {
  const stored = await storedProduct(t.database.db, store.id, id);
  const built = await getProduct(t.database.db, store.id, id);
  expect(stored?.body).toBe(canonicalJson(built));
  expect(stored?.etag).toBe(etagOf(built));
}

const { eventsOf } = feedOf(() => t);

const fieldsOf = (reply: { body: { error: { details: { field: string }[] } } }) => reply.body.error.details.map((d) => d.field).sort();

describe('products: catalog fields', () => {
  it('a simple product keeps vendor, type, tags, custom fields and its own sku, barcode and weight', async () => {
    const store = await t.newStore();
    const created = await t.call(store, 'POST', '/products', {
      title: 'Gift card',
      vendor: ' Acme ',
      productType: 'Cards',
      tags: [' Summer ', 'sale', 'SUMMER', '', '  ', 'Sale', 'New'],
      sku: ' GC-1 ',
      barcode: '0123456789012',
      weightGrams: 12.5,
      totalStock: 7,
      customFields: { 'shopify.Google: MPN': 'X1', 'shopify.Gift Card': true, rank: 3, dropped: null },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const product = created.body.data;
    expect(product).toMatchObject({
      vendor: 'Acme',
      productType: 'Cards',
      tags: ['Summer', 'sale', 'New'],
      sku: 'GC-1',
      barcode: '0123456789012',
      weightGrams: 12.5,
      totalStock: 7,
      customFields: { 'shopify.Google: MPN': 'X1', 'shopify.Gift Card': true, rank: 3 },
      variants: [],
    });
    expect(Object.keys(product.customFields)).toEqual(['rank', 'shopify.Gift Card', 'shopify.Google: MPN']);
    await expectCurrentDocument(store, product.id);
    const read = await t.call(store, 'GET', `/products/${product.id}`);
    expect(read.body.data).toEqual(product);
    expect(read.headers.etag).toBe(created.headers.etag);
  });

  it('a product without the new fields shows them empty', async () => {
    const store = await t.newStore();
    const product = (await t.call(store, 'POST', '/products', { title: 'Plain', options: [{ name: 'Size', values: ['S'] }] })).body.data;
    expect(product).toMatchObject({
      vendor: null,
      productType: null,
      tags: [],
      sku: null,
      barcode: null,
      weightGrams: null,
      customFields: {},
    });
    expect(product.variants[0]).toMatchObject({ barcode: null, weightGrams: null, image: null, customFields: {} });
  });

  it('PATCH merges custom fields key by key (null removes a key), moves the ETag, and keeps what it does not name', async () => {
    const store = await t.newStore();
    const created = await t.call(store, 'POST', '/products', {
      title: 'Mug',
      vendor: 'Acme',
      tags: ['a'],
      customFields: { a: 1, b: 'x', c: false },
    });
    const { id } = created.body.data;
    let patched = created;
    const events = await eventsOf(store, async () => {
      patched = await t.call(store, 'PATCH', `/products/${id}`, { customFields: { b: null, c: true, d: 'new', 'two\nlines': 'kept' } });
    });
    expect(patched.status).toBe(200);
    // the event carries the product as GET returns it, merged fields included
    expect(events.map((event) => [event.type, event.data])).toEqual([['product.updated', patched.body.data]]);
    expect(patched.body.data.customFields).toEqual({ a: 1, c: true, d: 'new', 'two\nlines': 'kept' });
    expect(patched.headers.etag).not.toBe(created.headers.etag);
    await expectCurrentDocument(store, id);
    const other = await t.call(store, 'PATCH', `/products/${id}`, { title: 'Mug 2' });
    expect(other.body.data).toMatchObject({ customFields: { a: 1, c: true, d: 'new', 'two\nlines': 'kept' }, vendor: 'Acme', tags: ['a'] });
    const cleared = await t.call(store, 'PATCH', `/products/${id}`, {
      vendor: null,
      tags: [],
      customFields: { a: null, c: null, d: null, 'two\nlines': null },
    });
    expect(cleared.body.data).toMatchObject({ vendor: null, tags: [], customFields: {} });
    // a record as GET returns it can be sent back: nothing changes
    const back = await t.call(store, 'PATCH', `/products/${id}`, cleared.body.data);
    expect(back.status).toBe(200);
    expect({ ...back.body.data, updatedAt: null }).toEqual({ ...cleared.body.data, updatedAt: null });
  });

  it('refuses bad values with a 400 naming each field', async () => {
    const store = await t.newStore();
    const tooManyTags = Array.from({ length: 251 }, (_, i) => `t${i}`);
    const manyKeys = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`k${i}`, i]));
    const cases: [Record<string, unknown>, string[]][] = [
      [{ tags: tooManyTags }, ['tags']],
      [{ tags: ['x'.repeat(256)] }, ['tags[0]']],
      [{ tags: 'a,b' }, ['tags']],
      [{ customFields: manyKeys }, ['customFields']],
      [{ customFields: { ['k'.repeat(129)]: 1 } }, ['customFields']],
      [{ customFields: { '': 1 } }, ['customFields']],
      [{ customFields: { a: { nested: 1 } } }, ['customFields.a']],
      [{ customFields: { a: [1] } }, ['customFields.a']],
      [{ customFields: { a: 'x'.repeat(70_000) } }, ['customFields']],
      [{ customFields: [] }, ['customFields']],
      [{ weightGrams: -1 }, ['weightGrams']],
      [{ weightGrams: '12' }, ['weightGrams']],
      [{ vendor: 5 }, ['vendor']],
      [{ sku: 'S-1', barcode: 'B', weightGrams: 1, options: [{ name: 'Size', values: ['S'] }] }, ['barcode', 'sku', 'weightGrams']],
      [{ options: [{ name: 'Size', values: ['S'] }], variants: [{ attributes: { Size: 'S' }, image: 'ftp://x' }] }, ['variants[0].image']],
      [
        { options: [{ name: 'Size', values: ['S'] }], variants: [{ attributes: { Size: 'S' }, weightGrams: -2 }] },
        ['variants[0].weightGrams'],
      ],
    ];
    for (const [body, fields] of cases) {
      const reply = await t.call(store, 'POST', '/products', { title: 'Bad', ...body });
      expectError(reply, 400, 'VALIDATION_ERROR');
      expect(fieldsOf(reply), JSON.stringify(body).slice(0, 200)).toEqual(fields);
    }
    expect((await t.call(store, 'GET', '/products')).body.pagination.total).toBe(0);
  });

  it('only a product without options has its own sku: adding options to one that has it is refused until it is cleared', async () => {
    const store = await t.newStore();
    const { id } = (await t.call(store, 'POST', '/products', { title: 'Tee', sku: 'TEE' })).body.data;
    const options = [{ name: 'Size', values: ['S', 'M'] }];
    const refused = await t.call(store, 'PATCH', `/products/${id}`, { options });
    expect(fieldsOf(refused)).toEqual(['sku']);
    const done = await t.call(store, 'PATCH', `/products/${id}`, { options, sku: null });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ sku: null, options });
    expect(fieldsOf(await t.call(store, 'PATCH', `/products/${id}`, { barcode: '1' }))).toEqual(['barcode']);
    // dropping the options makes it simple again: it may then have its own
    const simple = await t.call(store, 'PATCH', `/products/${id}`, { options: [], barcode: '1', sku: 'TEE' });
    expect(simple.body.data).toMatchObject({ variants: [], barcode: '1', sku: 'TEE' });
  });

  it("variants carry barcode, weight, image and custom fields, through a product's variants and a variant PATCH", async () => {
    const store = await t.newStore();
    const created = await t.call(store, 'POST', '/products', {
      title: 'Tee',
      options: [{ name: 'Size', values: ['S', 'M'] }],
      variants: [
        {
          attributes: { Size: 'M' },
          barcode: '4006381333931',
          weightGrams: 180,
          image: 'https://cdn.test/m.jpg',
          customFields: { 'shopify.Variant Tax Code': 'A1', gone: null },
        },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const [small, medium] = created.body.data.variants;
    expect(small).toMatchObject({ barcode: null, weightGrams: null, image: null, customFields: {} });
    expect(medium).toMatchObject({
      barcode: '4006381333931',
      weightGrams: 180,
      image: 'https://cdn.test/m.jpg',
      customFields: { 'shopify.Variant Tax Code': 'A1' },
    });
    const { id } = created.body.data;
    await expectCurrentDocument(store, id);

    const patched = await t.call(store, 'PATCH', `/products/${id}/variants/${medium.id}`, {
      weightGrams: null,
      image: null,
      customFields: { extra: 2 },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data).toMatchObject({
      barcode: '4006381333931',
      weightGrams: null,
      image: null,
      customFields: { 'shopify.Variant Tax Code': 'A1', extra: 2 },
    });
    await expectCurrentDocument(store, id);
    const bad = await t.call(store, 'PATCH', `/products/${id}/variants/${medium.id}`, { image: 'not a url', customFields: { a: {} } });
    expect(fieldsOf(bad)).toEqual(['customFields.a']);
    const badUrl = await t.call(store, 'PATCH', `/products/${id}/variants/${medium.id}`, { image: 'javascript:alert(1)' });
    expect(fieldsOf(badUrl)).toEqual(['image']);

    // a product PATCH's variants entries merge a variant's custom fields too; options kept, values kept
    const again = await t.call(store, 'PATCH', `/products/${id}`, {
      variants: [{ attributes: { Size: 'M' }, customFields: { extra: null, more: 'yes' }, barcode: '' }],
    });
    expect(again.body.data.variants[1]).toMatchObject({
      id: medium.id,
      barcode: null,
      customFields: { 'shopify.Variant Tax Code': 'A1', more: 'yes' },
    });
    await expectCurrentDocument(store, id);
  });
});
