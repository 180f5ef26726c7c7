import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { listProductPage } from '../products/index.js';

/**
 * runListPage (list-page.ts) walked both ways: forward by `nextCursor` to the end, then backward by `prevCursor`
 * to the start, every page equal to the one seen going forward, on the indexed path and the matched one (a
 * search), on a sort whose value may be null (price, nulls last ascending and first descending), ties included.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const LIMIT = 2;

interface Walked {
  ids: string[];
  nextCursor: string | null;
  prevCursor: string | null;
}

async function pageOf(store: TestStore, query: Record<string, string>): Promise<Walked> {
  const page = await listProductPage(t.database.db, store.id, { limit: LIMIT, sort: '-createdAt', ...query } as never);
  return { ids: page.texts.map((text) => JSON.parse(text).id), nextCursor: page.nextCursor, prevCursor: page.prevCursor };
}

describe('runListPage: pages without a total, forward and back', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await t.newStore();
    const prices = [5, null, 5, 1, null, 9, 5, 1, null];
    for (const [index, price] of prices.entries()) {
      const product = { title: `Tie ${index % 3}`, ...(price === null ? {} : { price }) };
      const reply = await t.call(store, 'POST', '/products', product);
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      expect(reply.body.data.price).toBe(price);
    }
  });

  for (const query of [
    { sort: '-createdAt' },
    { sort: 'price' },
    { sort: '-price' },
    { sort: 'title' },
    { sort: '-price', search: 'tie 1' },
  ] as Record<string, string>[]) {
    it(`walks ${JSON.stringify(query)} to the end and back, page for page`, async () => {
      const whole = (await t.call(store, 'GET', `/products?${new URLSearchParams({ ...query, limit: '250' })}`)).body.data.map(
        (product: { id: string }) => product.id,
      );
      const forward: Walked[] = [await pageOf(store, query)];
      expect(forward[0].prevCursor).toBeNull();
      while (forward.at(-1)?.nextCursor) forward.push(await pageOf(store, { ...query, cursor: forward.at(-1)?.nextCursor as string }));
      expect(forward.flatMap((page) => page.ids)).toEqual(whole);

      // back from the last page: each previous page is the forward one, and the first has no previous page
      let page = forward.at(-1) as Walked;
      for (let index = forward.length - 2; index >= 0; index--) {
        page = await pageOf(store, { ...query, before: page.prevCursor as string });
        expect(page.ids, `page ${index + 1}`).toEqual(forward[index].ids);
        expect(page.nextCursor).not.toBeNull();
      }
      expect(page.prevCursor).toBeNull();
    });
  }

  it('refuses a next cursor as `before` and a before cursor with another filter, naming `before`', async () => {
    const first = await pageOf(store, { sort: 'price' });
    await expect(pageOf(store, { sort: 'price', before: first.nextCursor as string })).rejects.toMatchObject({
      details: [{ field: 'before' }],
    });
    const second = await pageOf(store, { sort: 'price', cursor: first.nextCursor as string });
    await expect(pageOf(store, { sort: '-price', before: second.prevCursor as string })).rejects.toMatchObject({
      details: [{ field: 'before' }],
    });
  });
});
