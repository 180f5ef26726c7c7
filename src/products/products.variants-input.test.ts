import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext } from '../../test/helpers.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const OPTIONS = [
  { name: 'Size', values: ['S', 'M'] },
  { name: 'Color', values: ['Red', 'Blue'] },
];
type V = {
  id: string;
  attributes: Record<string, string>;
  price: number | null;
  salePrice: number | null;
  stock: number;
  sku: string | null;
};
const find = (variants: V[], size: string, color: string) =>
  variants.find((v) => v.attributes.Size === size && v.attributes.Color === color) as V;

describe('products: variants in the product write', () => {
  it('sets price, salePrice, stock and SKU of the matching variants on create, the rest from the product', async () => {
    const store = await t.newStore();
    const res = await t.call(store, 'POST', '/products', {
      title: 'Tee',
      price: 10,
      comparePrice: 15,
      options: OPTIONS,
      variants: [
        { attributes: { color: 'Blue', size: 'M' }, price: 12, salePrice: 20, stock: 7, sku: 'TEE-M-BLUE' },
        { attributes: { Size: 'S', Color: 'Red' }, stock: 3, sku: '  ' },
      ],
    });
    expect(res.status).toBe(201);
    const variants = res.body.data.variants as V[];
    expect(find(variants, 'M', 'Blue')).toMatchObject({ price: 12, salePrice: 20, stock: 7, sku: 'TEE-M-BLUE' });
    expect(find(variants, 'S', 'Red')).toMatchObject({ price: 10, salePrice: 15, stock: 3, sku: null });
    expect(find(variants, 'S', 'Blue')).toMatchObject({ price: 10, salePrice: 15, stock: 0, sku: 'tee-s-blue' });
    const read = await t.call(store, 'GET', `/products/${res.body.data.id}`);
    expect(read.body.data).toEqual(res.body.data);
  });

  it('refuses an entry matching no variant, one listed twice, or a salePrice below the price, and writes nothing', async () => {
    const store = await t.newStore();
    const cases = [
      {
        variants: [{ attributes: { Size: 'S', Color: 'Red' } }, { attributes: { Size: 'XL', Color: 'Red' }, stock: 1 }],
        field: 'variants[1].attributes',
      },
      {
        variants: [{ attributes: { Size: 'S', Color: 'Red' } }, { attributes: { color: 'Red', size: 'S' } }],
        field: 'variants[1].attributes',
      },
      { variants: [{ attributes: { Size: 'M', Color: 'Red' }, price: 30 }], field: 'variants[0].price' },
      { variants: [{ attributes: { Size: 'M', Color: 'Red' }, salePrice: 1 }], field: 'variants[0].salePrice' },
    ];
    for (const { variants, field } of cases) {
      const res = await t.call(store, 'POST', '/products', { title: 'Bad', price: 10, comparePrice: 15, options: OPTIONS, variants });
      expect(res.status).toBe(400);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
    }
    const without = await t.call(store, 'POST', '/products', { title: 'No options', variants: [{ attributes: { Size: 'S' } }] });
    expect(without.status).toBe(400);
    expect((await t.call(store, 'GET', '/products')).body.pagination.total).toBe(0);
  });

  it('applies entries on PATCH, with options (kept and new variants) and without (the variants as they are)', async () => {
    const store = await t.newStore();
    const created = (await t.call(store, 'POST', '/products', { title: 'Cap', price: 5, options: OPTIONS })).body.data;
    const keptId = find(created.variants, 'S', 'Red').id;
    const patched = await t.call(store, 'PATCH', `/products/${created.id}`, {
      options: [
        { name: 'Size', values: ['S', 'M', 'L'] },
        { name: 'Color', values: ['Red', 'Blue'] },
      ],
      variants: [
        { attributes: { Size: 'S', Color: 'Red' }, stock: 9 },
        { attributes: { Size: 'L', Color: 'Blue' }, price: 6, sku: 'CAP-L' },
      ],
    });
    expect(patched.status).toBe(200);
    expect(find(patched.body.data.variants, 'S', 'Red')).toMatchObject({ id: keptId, stock: 9, price: 5 });
    expect(find(patched.body.data.variants, 'L', 'Blue')).toMatchObject({ price: 6, sku: 'CAP-L', stock: 0 });
    const only = await t.call(store, 'PATCH', `/products/${created.id}`, {
      variants: [{ attributes: { Size: 'M', Color: 'Blue' }, stock: 4, salePrice: 8 }],
    });
    expect(only.status).toBe(200);
    expect(find(only.body.data.variants, 'M', 'Blue')).toMatchObject({ stock: 4, salePrice: 8, price: 5 });
    expect(find(only.body.data.variants, 'S', 'Red')).toMatchObject({ id: keptId, stock: 9 });
    const wrong = await t.call(store, 'PATCH', `/products/${created.id}`, { variants: [{ attributes: { Size: 'XS' }, stock: 1 }] });
    expect(wrong.status).toBe(400);
    expect(find((await t.call(store, 'GET', `/products/${created.id}`)).body.data.variants, 'M', 'Blue').stock).toBe(4);
  });
});
