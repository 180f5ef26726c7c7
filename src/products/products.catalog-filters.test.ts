import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { memberIds, newProduct, smart } from '../../test/support/collections.fixtures.js';

/**
 * Finding products by the catalog fields of a migration: the list filters `vendor`, `productType`, `tag`
 * (exact, case-insensitive), smart-collection conditions on them, and a simple product's own SKU in the
 * search and in the `sku` condition.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
}, 180_000);
afterAll(() => t.close());

interface Catalog {
  store: TestStore;
  ids: Record<string, string>;
}

/** Four products: two vendors, two types, overlapping tags; one simple product with its own SKU. */
async function catalog(): Promise<Catalog> {
  const store = await t.newStore();
  const make = async (title: string, body: Record<string, unknown>) => (await newProduct(t, store, { title, ...body })).id as string;
  const ids = {
    shirt: await make('Shirt', {
      vendor: 'Acme',
      productType: 'Shirts',
      tags: ['Summer', 'Sale'],
      options: [{ name: 'Size', values: ['S'] }],
    }),
    hat: await make('Hat', { vendor: 'ACME', productType: 'Hats', tags: ['winter'] }),
    mug: await make('Mug', { vendor: 'Mugs & Co', productType: 'Kitchen', tags: ['sale'], sku: 'MUG-RED-01' }),
    plain: await make('Plain', {}),
  };
  return { store, ids };
}

const listed = async ({ store }: Catalog, query: string) => {
  const reply = await t.call(store, 'GET', `/products?sort=title&${query}`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return { titles: reply.body.data.map((p: { title: string }) => p.title), total: reply.body.pagination.total };
};

describe('product list: catalog filters', () => {
  let c: Catalog;
  beforeAll(async () => {
    c = await catalog();
  });

  it.each([
    ['vendor=acme', ['Hat', 'Shirt']],
    ['vendor=Mugs%20%26%20Co', ['Mug']],
    ['vendor=Acm', []],
    ['productType=shirts', ['Shirt']],
    ['tag=SALE', ['Mug', 'Shirt']],
    ['tag=summer', ['Shirt']],
    ['tag=sum', []],
    ['tag=sale&vendor=acme', ['Shirt']],
    ['tag=winter&productType=Hats&status=active', ['Hat']],
  ])('%s', async (query, titles) => {
    expect(await listed(c, query)).toEqual({ titles, total: titles.length });
  });

  it('pages by cursor with a filter, the cursor bound to it', async () => {
    const first = await t.call(c.store, 'GET', '/products?tag=sale&limit=1');
    expect(first.body.pagination).toMatchObject({ total: 2, totalPages: 2 });
    const cursor = encodeURIComponent(first.body.pagination.nextCursor);
    const second = await t.call(c.store, 'GET', `/products?tag=sale&limit=1&cursor=${cursor}`);
    expect(second.status).toBe(200);
    expect([first.body.data[0].id, second.body.data[0].id].sort()).toEqual([c.ids.mug, c.ids.shirt].sort());
    expect((await t.call(c.store, 'GET', `/products?tag=winter&limit=1&cursor=${cursor}`)).status).toBe(400);
  });

  it("the search finds a simple product by its own SKU, as it finds variants' SKUs", async () => {
    expect(await listed(c, 'search=red-01')).toEqual({ titles: ['Mug'], total: 1 });
    expect(await listed(c, 'search=shirt-s')).toEqual({ titles: ['Shirt'], total: 1 });
  });

  it('another store sees none of them', async () => {
    const other = { store: await t.newStore(), ids: {} };
    expect(await listed(other, 'vendor=acme')).toEqual({ titles: [], total: 0 });
  });
});

describe('smart collections: vendor, productType, tag, and a simple product’s sku', () => {
  let c: Catalog;
  beforeAll(async () => {
    c = await catalog();
  });
  const members = async (conditions: { field: string; operator: string; value: string }[], matchType?: string) => {
    const collection = await smart(t, c.store, conditions, matchType);
    return memberIds(t, c.store, collection.id);
  };

  it('vendor and productType take the text operators, case-insensitively', async () => {
    expect(await members([{ field: 'vendor', operator: 'equals', value: 'acme' }])).toEqual([c.ids.hat, c.ids.shirt]);
    expect(await members([{ field: 'vendor', operator: 'starts_with', value: 'MUG' }])).toEqual([c.ids.mug]);
    // not_equals keeps products without a vendor
    expect(await members([{ field: 'vendor', operator: 'not_equals', value: 'Acme' }])).toEqual([c.ids.mug, c.ids.plain]);
    expect(await members([{ field: 'productType', operator: 'contains', value: 'hat' }])).toEqual([c.ids.hat]);
  });

  it('tag equals: has the tag; not_equals: has not (products without tags included)', async () => {
    expect(await members([{ field: 'tag', operator: 'equals', value: 'Sale' }])).toEqual([c.ids.mug, c.ids.shirt]);
    expect(await members([{ field: 'tag', operator: 'not_equals', value: 'sale' }])).toEqual([c.ids.hat, c.ids.plain]);
    expect(
      await members(
        [
          { field: 'tag', operator: 'equals', value: 'winter' },
          { field: 'productType', operator: 'equals', value: 'kitchen' },
        ],
        'any condition',
      ),
    ).toEqual([c.ids.hat, c.ids.mug]);
  });

  it('refuses a text operator other than equals/not_equals on tag', async () => {
    const reply = await t.call(c.store, 'POST', '/collections', {
      title: 'Bad',
      collectionType: 'smart',
      conditions: [{ field: 'tag', operator: 'contains', value: 'x' }],
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error.details.map((d: { field: string }) => d.field)).toEqual(['conditions[0].operator']);
  });

  it("sku matches a simple product's own SKU or a variant's; not_equals keeps products with neither", async () => {
    expect(await members([{ field: 'sku', operator: 'starts_with', value: 'mug-' }])).toEqual([c.ids.mug]);
    expect(await members([{ field: 'sku', operator: 'not_contains', value: 'red' }])).toEqual([c.ids.hat, c.ids.plain, c.ids.shirt]);
  });

  it('membership follows a PATCH of the fields at once (evaluated at read time)', async () => {
    const collection = await smart(t, c.store, [{ field: 'tag', operator: 'equals', value: 'clearance' }]);
    expect(await memberIds(t, c.store, collection.id)).toEqual([]);
    await t.call(c.store, 'PATCH', `/products/${c.ids.plain}`, { tags: ['Clearance'] });
    expect(await memberIds(t, c.store, collection.id)).toEqual([c.ids.plain]);
  });
});
