import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { feedOf } from '../../test/support/feed.fixtures.js';
import { canonicalJson } from '../shared/canonical-json.js';
import { storedProduct } from './product-documents.sql.js';
import { getProduct } from './products.service.js';

/**
 * Variants that do not exist (CONTRACT §6, docs/products.md): DELETE of one combination, options PATCHes that
 * add only combinations with a new value, `variantsExactly`.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
}, 180_000);
afterAll(() => t.close());

const { eventsOf } = feedOf(() => t);

type V = { id: string; attributes: Record<string, string>; price: number | null; stock: number; sku: string };

const SHIRT = {
  title: 'Shirt',
  price: 20,
  options: [
    { name: 'Color', values: ['Red', 'Blue'] },
    { name: 'Size', values: ['S', 'M'] },
  ],
};

const combos = (variants: V[]) => variants.map((v) => `${v.attributes.Color}/${v.attributes.Size}`);

async function storedCombos(store: TestStore, productId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from variant_attribute_values where store_id = ${store.id}
    and variant_id in (select id from variants where store_id = ${store.id} and product_id = ${productId})`.execute(t.database.db);
  return rows[0].n;
}

describe('DELETE /products/{id}/variants/{variantId}', () => {
  it('removes one combination with its links, moves updatedAt, sends product.updated and keeps the stored document current', async () => {
    const store = await t.newStore();
    const product = (await t.call(store, 'POST', '/products', SHIRT)).body.data;
    const blueS = (product.variants as V[]).find((v) => v.attributes.Color === 'Blue' && v.attributes.Size === 'S') as V;
    let reply = await t.call(store, 'GET', '/');
    const events = await eventsOf(store, async () => {
      reply = await t.call(store, 'DELETE', `/products/${product.id}/variants/${blueS.id}`);
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ success: true, data: { id: blueS.id } });
    const after = (await t.call(store, 'GET', `/products/${product.id}`)).body.data;
    expect(combos(after.variants)).toEqual(['Red/S', 'Red/M', 'Blue/M']);
    expect(after.updatedAt > product.updatedAt).toBe(true);
    expect(events.map((event) => [event.type, event.data])).toEqual([['product.updated', after]]);
    expect(await storedCombos(store, product.id)).toBe(6);
    expect((await storedProduct(t.database.db, store.id, product.id))?.body).toBe(
      canonicalJson(await getProduct(t.database.db, store.id, product.id)),
    );
    expectError(await t.call(store, 'DELETE', `/products/${product.id}/variants/${blueS.id}`), 404, 'NOT_FOUND');
  });

  it('refuses to delete the last variant (400, nothing changes) and answers 404 for another product’s variant', async () => {
    const store = await t.newStore();
    const product = (await t.call(store, 'POST', '/products', { title: 'Mug', options: [{ name: 'Size', values: ['S', 'M'] }] })).body.data;
    const [s, m] = product.variants as V[];
    const other = (await t.call(store, 'POST', '/products', { title: 'Cap' })).body.data;
    expectError(await t.call(store, 'DELETE', `/products/${other.id}/variants/${s.id}`), 404, 'NOT_FOUND');
    expect((await t.call(store, 'DELETE', `/products/${product.id}/variants/${s.id}`)).status).toBe(200);
    const last = expectError(await t.call(store, 'DELETE', `/products/${product.id}/variants/${m.id}`), 400, 'VALIDATION_ERROR');
    expect(last.details.map((d) => d.field)).toEqual(['variantId']);
    expect(combos((await t.call(store, 'GET', `/products/${product.id}`)).body.data.variants).length).toBe(1);
  });
});

describe('options PATCH after a delete', () => {
  it('keeps a removed combination removed and creates only combinations holding a new value', async () => {
    const store = await t.newStore();
    const product = (await t.call(store, 'POST', '/products', SHIRT)).body.data;
    const blueS = (product.variants as V[]).find((v) => v.attributes.Color === 'Blue' && v.attributes.Size === 'S') as V;
    await t.call(store, 'DELETE', `/products/${product.id}/variants/${blueS.id}`);
    const same = await t.call(store, 'PATCH', `/products/${product.id}`, { options: SHIRT.options });
    expect(combos(same.body.data.variants)).toEqual(['Red/S', 'Red/M', 'Blue/M']);
    const grown = await t.call(store, 'PATCH', `/products/${product.id}`, {
      options: [
        { name: 'Color', values: ['Red', 'Blue'] },
        { name: 'Size', values: ['S', 'M', 'L'] },
      ],
    });
    expect(grown.status).toBe(200);
    expect(combos(grown.body.data.variants)).toEqual(['Red/S', 'Red/M', 'Red/L', 'Blue/M', 'Blue/L']);
    const kept = (grown.body.data.variants as V[]).filter((v) => v.attributes.Size !== 'L').map((v) => v.id);
    expect(kept).toEqual((same.body.data.variants as V[]).map((v) => v.id));
  });
});

describe('variantsExactly', () => {
  it('creates exactly the listed combinations, with their values', async () => {
    const store = await t.newStore();
    const reply = await t.call(store, 'POST', '/products', {
      ...SHIRT,
      variantsExactly: true,
      variants: [
        { attributes: { Color: 'Red', Size: 'S' }, sku: 'RS', stock: 3 },
        { attributes: { Color: 'Blue', Size: 'M' }, sku: 'BM' },
      ],
    });
    expect(reply.status).toBe(201);
    expect(combos(reply.body.data.variants)).toEqual(['Red/S', 'Blue/M']);
    expect((reply.body.data.variants as V[]).map((v) => [v.sku, v.stock, v.price])).toEqual([
      ['RS', 3, 20],
      ['BM', 0, 20],
    ]);
    const stored = await getProduct(t.database.db, store.id, reply.body.data.id);
    expect(stored.variants.map((v) => v.sku)).toEqual(['RS', 'BM']);
  });

  it('on PATCH keeps only the listed ones (ids of survivors kept), with or without options', async () => {
    const store = await t.newStore();
    const product = (await t.call(store, 'POST', '/products', SHIRT)).body.data;
    const redM = (product.variants as V[]).find((v) => v.attributes.Color === 'Red' && v.attributes.Size === 'M') as V;
    const reply = await t.call(store, 'PATCH', `/products/${product.id}`, {
      variantsExactly: true,
      variants: [{ attributes: { Color: 'Red', Size: 'M' } }, { attributes: { Color: 'Blue', Size: 'S' }, stock: 7 }],
    });
    expect(reply.status).toBe(200);
    expect(combos(reply.body.data.variants)).toEqual(['Red/M', 'Blue/S']);
    expect(reply.body.data.variants[0].id).toBe(redM.id);
    expect(reply.body.data.variants[1].stock).toBe(7);
    expect(await storedCombos(store, product.id)).toBe(4);
  });

  it('refuses an entry that is no combination of the options, naming it, and changes nothing', async () => {
    const store = await t.newStore();
    const product = (await t.call(store, 'POST', '/products', SHIRT)).body.data;
    const error = expectError(
      await t.call(store, 'PATCH', `/products/${product.id}`, {
        variantsExactly: true,
        variants: [{ attributes: { Color: 'Red', Size: 'S' } }, { attributes: { Color: 'Green', Size: 'S' } }],
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(error.details.map((d) => d.field)).toEqual(['variants[1].attributes']);
    const created = expectError(
      await t.call(store, 'POST', '/products', {
        ...SHIRT,
        handle: 'x',
        variantsExactly: true,
        variants: [{ attributes: { Color: 'Red' } }],
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(created.details.map((d) => d.field)).toContain('variants[0].attributes');
    const empty = expectError(
      await t.call(store, 'POST', '/products', { ...SHIRT, variantsExactly: true, variants: [] }),
      400,
      'VALIDATION_ERROR',
    );
    expect(empty.details.map((d) => d.field)).toEqual(['variants']);
    expect((await t.call(store, 'GET', `/products/${product.id}`)).body.data.variants).toHaveLength(4);
  });
});
