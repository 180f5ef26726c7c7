import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext } from '../../test/helpers.js';
import {
  events,
  importLines,
  isMBlue,
  line,
  type ProductOut,
  products,
  quiet,
  type VariantOut,
} from '../../test/support/product-imports.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

describe('batch import: time bound', () => {
  it('ends a batch at the time bound only after the lines the batch part wrote; lines it only judged are judged again', async () => {
    const store = await t.newStore();
    await importLines(t, store, [line('seen1'), line('seen2'), line('edited')]);
    const edited = (await products(t, store)).find((p) => p.handle === 'edited') as ProductOut;
    await t.call(store, 'PATCH', `/products/${edited.id}`, { title: 'Edited by hand' });
    // batchMs 0: every line the batch part did not write may end its batch
    const lines = [line('new1'), line('new2'), line('seen1'), line('edited'), line('seen2'), line('new3')];
    const { job, errors } = await importLines(t, store, lines, 'batch', quiet, 0);
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ status: 'succeeded', processed: 6, created: 3, updated: 3, failed: 0 });
    expect((await products(t, store)).map((p) => p.handle)).toEqual(['edited', 'new1', 'new2', 'new3', 'seen1', 'seen2']);
    expect((await t.call(store, 'GET', '/products?limit=1')).body.pagination.total).toBe(6);
    expect((await events(t, store)).filter((e) => e.type === 'product.updated').map((e) => e.data.handle)).toEqual(['edited', 'edited']);
  });
});

describe('re-import', () => {
  it('of the same file: 0 created, every line updated, nothing written, no event', async () => {
    const store = await t.newStore();
    const lines = Array.from({ length: 150 }, (_, i) => line(`p-${i}`, i));
    expect((await importLines(t, store, lines)).job).toMatchObject({ created: 150, failed: 0 });
    // every row's updatedAt: a write of any of them would move it
    const stamps = (table: 'products' | 'variants') =>
      t.database.db.selectFrom(table).select(['id', 'updated_at']).where('store_id', '=', store.id).orderBy('id').execute();
    const before = await stamps('products');
    const variantsBefore = await stamps('variants');
    const feedBefore = (await events(t, store)).length;

    const { job } = await importLines(t, store, lines);
    expect(job).toMatchObject({ status: 'succeeded', processed: 150, created: 0, updated: 150, failed: 0 });
    expect(await stamps('products')).toEqual(before);
    expect(await stamps('variants')).toEqual(variantsBefore);
    expect(await events(t, store)).toHaveLength(feedBefore);
    // the per-line path (a fallback) sees the same: an unchanged product is not written either
    expect((await importLines(t, store, lines.slice(0, 3), 'per-line')).job).toMatchObject({ created: 0, updated: 3 });
    expect(await events(t, store)).toHaveLength(feedBefore);
  });

  it('after a PATCH of a product or of a variant: those are updated for real, the others not', async () => {
    const store = await t.newStore();
    const lines = [line('r1'), line('r2'), line('r3')];
    await importLines(t, store, lines);
    const [r1, r2, r3] = await products(t, store);
    await t.call(store, 'PATCH', `/products/${r1.id}`, { title: 'Edited' });
    const variant = r2.variants.find(isMBlue) as VariantOut;
    expect((await t.call(store, 'PATCH', `/products/${r2.id}/variants/${variant.id}`, { stock: 99 })).status).toBe(200);
    const feedBefore = (await events(t, store)).length;

    const { job } = await importLines(t, store, lines);
    expect(job).toMatchObject({ created: 0, updated: 3, failed: 0 });
    const after = await products(t, store);
    expect(after[0].title).toBe('Product r1');
    expect(after[1].variants.find((v) => v.id === variant.id)?.stock).toBe(4);
    expect(after[2]).toEqual(r3);
    const feed = (await events(t, store)).slice(feedBefore);
    // r2's stock back to 4 moves its default location's level: that level's inventory.updated (CONTRACT §13)
    const named = (data: { handle?: string; variantId?: string }) => data.handle ?? data.variantId;
    expect(feed.map((event) => `${event.type}:${named(event.data)}`)).toEqual([
      'product.updated:r1',
      'product.updated:r2',
      `inventory.updated:${variant.id}`,
    ]);
    // and those lines are now the products' last import: a third run writes nothing
    await importLines(t, store, lines);
    expect(await events(t, store)).toHaveLength(feedBefore + 3);
  });

  it('of lines that go one by one (collections, a handle twice): unchanged lines write nothing either', async () => {
    const store = await t.newStore();
    const collection = (await t.call(store, 'POST', '/collections', { title: 'Summer' })).body.data;
    const lines = [line('in-summer', 10, { selectedCollections: [collection.id] }), line('twice', 10), line('twice', 11)];
    expect((await importLines(t, store, lines)).job).toMatchObject({ created: 2, updated: 1, failed: 0 });
    const before = await products(t, store);
    const feedBefore = (await events(t, store)).length;
    expect((await importLines(t, store, lines)).job).toMatchObject({ created: 0, updated: 3, failed: 0 });
    // in-summer is unchanged; the first "twice" line changes the product back (price 10), the second again
    const feed = (await events(t, store)).slice(feedBefore);
    expect(feed.map((event) => `${event.type}:${event.data.handle}`)).toEqual(['product.updated:twice', 'product.updated:twice']);
    const after = await products(t, store);
    expect(after[0]).toEqual(before[0]);
    expect(after[1].price).toBe(11);
  });
});
