import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

type V = { id: string; attributes: Record<string, string>; price: number | null; salePrice: number | null; stock: number; sku: string };

async function count(table: 'variants' | 'variant_attribute_values', store: TestStore): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where store_id = ${store.id}`.execute(
    t.database.db,
  );
  return rows[0].n;
}

const SHIRT = {
  title: 'Tee',
  price: 20,
  comparePrice: 25,
  options: [
    { name: ' Size ', values: ['S', ' M '] },
    { name: 'Color', values: ['Red', 'Blue', 'Light Green'] },
  ],
};

describe('variants: generation', () => {
  it('generates the cartesian product, first option slowest, with prices, stock 0 and SKUs', async () => {
    const store = await t.newStore();
    const product = (await t.call(store, 'POST', '/products', SHIRT)).body.data;
    expect(product.options).toEqual([
      { name: 'Size', values: ['S', 'M'] },
      { name: 'Color', values: ['Red', 'Blue', 'Light Green'] },
    ]);
    const variants: V[] = product.variants;
    expect(variants.map((v) => v.attributes)).toEqual([
      { Size: 'S', Color: 'Red' },
      { Size: 'S', Color: 'Blue' },
      { Size: 'S', Color: 'Light Green' },
      { Size: 'M', Color: 'Red' },
      { Size: 'M', Color: 'Blue' },
      { Size: 'M', Color: 'Light Green' },
    ]);
    expect(variants.map((v) => v.sku)).toEqual([
      'tee-s-red',
      'tee-s-blue',
      'tee-s-light-green',
      'tee-m-red',
      'tee-m-blue',
      'tee-m-light-green',
    ]);
    for (const variant of variants) {
      expect(Object.keys(variant).sort()).toEqual([
        'attributes',
        'barcode',
        'createdAt',
        'customFields',
        'id',
        'image',
        'price',
        'productId',
        'salePrice',
        'sku',
        'stock',
        'updatedAt',
        'weightGrams',
      ]);
      expect(variant).toMatchObject({ productId: product.id, price: 20, salePrice: 25, stock: 0 });
    }
    const listed = await t.call(store, 'GET', `/products/${product.id}/variants`);
    // a list like any other (in generation order by default), paginated
    expect(listed.body).toEqual({
      success: true,
      data: variants,
      pagination: { page: 1, limit: 25, total: 6, totalPages: 1, nextCursor: null },
    });
    expect(await count('variant_attribute_values', store)).toBe(12);
  });

  it('upserts option names as attributes (case-insensitively) and values as attribute values', async () => {
    const store = await t.newStore();
    const existing = (await t.call(store, 'POST', '/attributes', { name: 'SIZE', values: ['XL'] })).body.data;
    await t.call(store, 'POST', '/products', { title: 'A', options: [{ name: 'size', values: ['S', 'XL'] }] });
    await t.call(store, 'POST', '/products', {
      title: 'B',
      options: [
        { name: 'Size', values: ['M'] },
        { name: 'Fabric', values: ['Wool'] },
      ],
    });
    const attributes = (await t.call(store, 'GET', '/attributes?sort=name&expand=values')).body.data;
    expect(attributes.map((a: { name: string }) => a.name)).toEqual(['Fabric', 'SIZE']);
    expect(attributes[1].id).toBe(existing.id);
    expect(attributes[1].values.map((v: { name: string }) => v.name)).toEqual(['XL', 'S', 'M']);
    expect(attributes[0].values.map((v: { name: string; status: string }) => [v.name, v.status])).toEqual([['Wool', 'active']]);
  });

  it('rejects bad options naming each wrong field, storing nothing', async () => {
    const store = await t.newStore();
    const options = [
      { name: 'Size', values: ['S', 'M', 's', ' '] },
      { name: 'size', values: ['x'] },
      { name: 'Color', values: [] },
      { name: '', values: ['y'] },
    ];
    const error = expectError(await t.call(store, 'POST', '/products', { title: 'Bad', options }), 400, 'VALIDATION_ERROR');
    expect(error.details.map((d) => d.field).sort()).toEqual(['options[0].values[3]', 'options[2].values', 'options[3].name']);
    const dupes = expectError(
      await t.call(store, 'POST', '/products', {
        title: 'Bad',
        options: [options[0], options[1]].map((o, i) => (i ? o : { ...o, values: ['S', 'M', 's'] })),
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(dupes.details.map((d) => d.field).sort()).toEqual(['options[0].values[2]', 'options[1].name']);
    const tooMany = [16, 16, 9].map((n, i) => ({ name: `o${i}`, values: Array.from({ length: n }, (_, j) => `v${j}`) }));
    const cap = expectError(await t.call(store, 'POST', '/products', { title: 'Huge', options: tooMany }), 400, 'VALIDATION_ERROR');
    expect(cap.details).toEqual([expect.objectContaining({ field: 'options', message: expect.stringContaining('2048') })]);
    expect((await t.call(store, 'GET', '/products')).body.pagination.total).toBe(0);
    expect((await t.call(store, 'GET', '/attributes')).body.pagination.total).toBe(0);
  });

  it('generates the maximum of 2048 variants in one request', async () => {
    const store = await t.newStore();
    const options = [32, 64].map((n, i) => ({ name: `o${i}`, values: Array.from({ length: n }, (_, j) => `v${j}`) }));
    const res = await t.call(store, 'POST', '/products', { title: 'Grid', price: 1, options });
    expect(res.status).toBe(201);
    expect(res.body.data.variants).toHaveLength(2048);
    expect(res.body.data.variants[2047]).toMatchObject({ attributes: { o0: 'v31', o1: 'v63' }, sku: 'grid-v31-v63' });
    expect(await count('variant_attribute_values', store)).toBe(4096);
  });
});

describe('variants: updates', () => {
  it('patches price, salePrice, stock and sku of one variant', async () => {
    const store = await t.newStore();
    const product = (await t.call(store, 'POST', '/products', SHIRT)).body.data;
    const [first, second] = product.variants as V[];
    const url = `/products/${product.id}/variants/${first.id}`;
    const res = await t.call(store, 'PATCH', url, { price: 22.5, salePrice: null, stock: 7, sku: 'TEE-S-RED-01', productId: 'ignored' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: first.id,
      productId: product.id,
      price: 22.5,
      salePrice: null,
      stock: 7,
      sku: 'TEE-S-RED-01',
    });
    const after = (await t.call(store, 'GET', `/products/${product.id}`)).body.data;
    expect(after.variants[0]).toEqual(res.body.data);
    expect(after.variants[1]).toEqual(second);
    expect(Date.parse(after.updatedAt)).toBeGreaterThanOrEqual(Date.parse(product.updatedAt));
    for (const body of [{ stock: -1 }, { stock: 1.5 }, { price: '3' }, { price: 30, salePrice: 29 }]) {
      expectError(await t.call(store, 'PATCH', url, body), 400, 'VALIDATION_ERROR');
    }
    const other = (await t.call(store, 'POST', '/products', { title: 'Other' })).body.data;
    expectError(await t.call(store, 'PATCH', `/products/${other.id}/variants/${first.id}`, { stock: 1 }), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'PATCH', `/products/${product.id}/variants/nope`, { stock: 1 }), 404, 'NOT_FOUND');
  });

  it('resyncs variants on PATCH options: survivors keep id, price, stock and sku', async () => {
    const store = await t.newStore();
    const product = (await t.call(store, 'POST', '/products', SHIRT)).body.data;
    const sRed = (product.variants as V[])[0];
    await t.call(store, 'PATCH', `/products/${product.id}/variants/${sRed.id}`, { price: 30, salePrice: 35, stock: 5, sku: 'custom' });
    const mBlue = (product.variants as V[])[4];
    const options = [
      { name: 'color', values: ['Blue', 'Red', 'Black'] },
      { name: 'SIZE', values: ['S', 'M'] },
    ];
    const res = await t.call(store, 'PATCH', `/products/${product.id}`, { price: 40, comparePrice: 50, handle: 'tee-2', options });
    expect(res.status).toBe(200);
    const variants: V[] = res.body.data.variants;
    expect(variants.map((v) => [v.attributes.color, v.attributes.SIZE])).toEqual([
      ['Blue', 'S'],
      ['Blue', 'M'],
      ['Red', 'S'],
      ['Red', 'M'],
      ['Black', 'S'],
      ['Black', 'M'],
    ]);
    expect(variants[2]).toMatchObject({
      id: sRed.id,
      price: 30,
      salePrice: 35,
      stock: 5,
      sku: 'custom',
      attributes: { color: 'Red', SIZE: 'S' },
    });
    expect(variants[1]).toMatchObject({ id: mBlue.id, price: 20, salePrice: 25, sku: 'tee-m-blue' });
    expect(variants[4]).toMatchObject({ price: 40, salePrice: 50, stock: 0, sku: 'tee-2-black-s' });
    const oldIds = new Set((product.variants as V[]).map((v) => v.id));
    expect(variants.filter((v) => oldIds.has(v.id))).toHaveLength(4);
    expect(await count('variants', store)).toBe(6);
    expect(await count('variant_attribute_values', store)).toBe(12);
    const cleared = await t.call(store, 'PATCH', `/products/${product.id}`, { options: [] });
    expect(cleared.body.data).toMatchObject({ options: [], variants: [] });
    expect(await count('variant_attribute_values', store)).toBe(0);
  });

  it('keeps variants untouched by a PATCH without options, and deletes them with the product', async () => {
    const store = await t.newStore();
    const product = (await t.call(store, 'POST', '/products', SHIRT)).body.data;
    const patched = await t.call(store, 'PATCH', `/products/${product.id}`, { price: 21, comparePrice: null, title: 'Tee 2' });
    expect(patched.body.data.variants).toEqual(product.variants);
    const same = await t.call(store, 'PATCH', `/products/${product.id}`, { options: product.options });
    expect(same.body.data.variants).toEqual(product.variants);
    await t.call(store, 'DELETE', `/products/${product.id}`);
    expect(await count('variants', store)).toBe(0);
    expect(await count('variant_attribute_values', store)).toBe(0);
    expect((await t.call(store, 'GET', '/attributes')).body.pagination.total).toBe(2);
  });
});
