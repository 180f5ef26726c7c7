import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

async function pageIds(store: TestStore, query: string, limit: number, pages: number): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; page <= pages; page++) {
    const res = await t.call(store, 'GET', `/products?${query}&limit=${limit}&page=${page}`);
    expect(res.status).toBe(200);
    ids.push(...res.body.data.map((p: { id: string }) => p.id));
  }
  return ids;
}

describe('paging through a list (shared list machinery)', () => {
  it('walks every sort page by page without repeating or skipping rows, ties included', async () => {
    const store = await t.newStore();
    const prices = [5, 5, 5, 1, 1, 9, 9, 5, 1];
    for (const [index, price] of prices.entries()) {
      const res = await t.call(store, 'POST', '/products', {
        title: `Tie ${index % 3}`,
        price,
        status: index % 4 === 0 ? 'disabled' : 'active',
      });
      expect(res.status).toBe(201);
    }
    for (const query of [
      'sort=price',
      'sort=-price',
      'sort=title',
      'sort=-createdAt',
      'sort=price&status=active',
      'sort=-price&search=tie%201',
    ]) {
      const whole = (await t.call(store, 'GET', `/products?${query}&limit=250`)).body;
      const paged = await pageIds(store, query, 2, Math.ceil(whole.pagination.total / 2) + 1);
      expect(paged, query).toEqual(whole.data.map((p: { id: string }) => p.id));
      expect(new Set(paged).size).toBe(paged.length);
    }
    const byPrice = (await t.call(store, 'GET', '/products?sort=price&limit=250')).body.data.map((p: { price: number }) => p.price);
    expect(byPrice).toEqual([...prices].sort((a, b) => a - b));
  });
});
