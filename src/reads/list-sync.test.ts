import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';

/**
 * CONTRACT §9.3 over every list endpoint, table-driven: updatedSince, the updatedAt sorts, and keyset
 * cursors that walk exactly what the pages walk and refuse to continue any other walk.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp({ webhookAllowPrivate: true });
});
afterAll(() => t.close());

interface Row {
  id: string;
  updatedAt: string;
}

async function created(store: TestStore, url: string, body: unknown): Promise<Row & Record<string, unknown>> {
  const reply = await t.call(store, 'POST', url, body);
  if (reply.status !== 201) throw new Error(`POST ${url}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.data;
}

const five = [0, 1, 2, 3, 4];

interface ListCase {
  name: string;
  sorts: string[];
  /** creates at least five records in the list; returns its path and the path of another list of the same kind */
  seed(store: TestStore): Promise<{ path: string; elsewhere: string }>;
}

const timeSorts = ['createdAt', '-createdAt', 'updatedAt', '-updatedAt'];

async function webhook(store: TestStore, i: number): Promise<Row> {
  return created(store, '/webhooks', { url: `http://127.0.0.1:9/hook-${i}`, events: ['*'] });
}

const CASES: ListCase[] = [
  {
    name: 'products',
    sorts: [...timeSorts, 'price', '-price', 'title', '-title'],
    async seed(store) {
      // two null prices: keyset paging must place them as ORDER BY does, in both directions
      for (const [i, price] of [3, null, 1, null, 3, 2].entries()) {
        await created(store, '/products', { title: `Item ${i % 2}`, ...(price === null ? {} : { price }) });
      }
      return { path: '/products', elsewhere: '/collections' };
    },
  },
  {
    name: 'variants of a product',
    sorts: [...timeSorts, 'position', '-position'],
    async seed(store) {
      const options = [
        { name: 'Size', values: ['S', 'M', 'L'] },
        { name: 'Color', values: ['Red', 'Blue'] },
      ];
      const product = await created(store, '/products', { title: 'Tee', options });
      const other = await created(store, '/products', { title: 'Other', options });
      const variants = product.variants as Row[];
      const patched = await t.call(store, 'PATCH', `/products/${product.id}/variants/${variants[3].id}`, { stock: 5 });
      expect(patched.status).toBe(200);
      return { path: `/products/${product.id}/variants`, elsewhere: `/products/${other.id}/variants` };
    },
  },
  {
    name: 'collections',
    sorts: [...timeSorts, 'title', '-title'],
    async seed(store) {
      for (const i of five) await created(store, '/collections', { title: `Coll ${i % 3}` });
      return { path: '/collections', elsewhere: '/products' };
    },
  },
  {
    name: 'products of a collection',
    sorts: [...timeSorts, 'price', '-price', 'title', '-title'],
    async seed(store) {
      const products = [];
      for (const i of five) products.push(await created(store, '/products', { title: `Member ${i % 2}`, price: i % 3 }));
      const collection = await created(store, '/collections', { title: 'Mine', selectedProducts: products.map((p) => p.id) });
      const other = await created(store, '/collections', { title: 'Other', selectedProducts: products.map((p) => p.id) });
      return { path: `/collections/${collection.id}/products`, elsewhere: `/collections/${other.id}/products` };
    },
  },
  {
    name: 'attributes',
    sorts: [...timeSorts, 'name', '-name'],
    async seed(store) {
      for (const i of five) await created(store, '/attributes', { name: `Attr ${i}`, values: ['a'] });
      return { path: '/attributes', elsewhere: '/attribute-sets' };
    },
  },
  {
    name: 'attribute sets',
    sorts: [...timeSorts, 'name', '-name'],
    async seed(store) {
      for (const i of five) await created(store, '/attribute-sets', { name: `Set ${i}`, status: i % 2 ? 'active' : 'inactive' });
      return { path: '/attribute-sets', elsewhere: '/attributes' };
    },
  },
  {
    name: 'customers',
    sorts: timeSorts,
    async seed(store) {
      for (const i of five) await created(store, '/customers', { userName: `user${i}`, password: 'long-secret-1' });
      return { path: '/customers', elsewhere: '/orders' };
    },
  },
  {
    name: 'orders',
    sorts: [...timeSorts, 'totalAmount', '-totalAmount'],
    async seed(store) {
      const cartItems = [{ productId: 'p', title: 'Thing', price: 1, quantity: 1 }];
      for (const i of five) await created(store, '/orders', { cartItems, subTotal: 1, totalAmount: i % 2 });
      return { path: '/orders', elsewhere: '/customers' };
    },
  },
  {
    name: 'webhooks',
    sorts: [...timeSorts, 'url', '-url'],
    async seed(store) {
      for (const i of five) await webhook(store, i);
      return { path: '/webhooks', elsewhere: '/orders' };
    },
  },
  {
    name: 'deliveries of a webhook',
    sorts: timeSorts,
    async seed(store) {
      const hook = await webhook(store, 1);
      const other = await webhook(store, 2);
      for (const _ of five) expect((await t.call(store, 'POST', `/webhooks/${hook.id}/test`)).status).toBe(202);
      return { path: `/webhooks/${hook.id}/deliveries`, elsewhere: `/webhooks/${other.id}/deliveries` };
    },
  },
];

async function get(store: TestStore, url: string) {
  const reply = await t.call(store, 'GET', url);
  if (reply.status !== 200) throw new Error(`GET ${url}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body as { data: Row[]; pagination: Record<string, unknown> & { nextCursor: string | null; total: number } };
}

const ids = (rows: Row[]) => rows.map((row) => row.id);

async function pageWalk(store: TestStore, path: string, query: string, limit: number): Promise<string[]> {
  const walked: string[] = [];
  for (let page = 1; ; page++) {
    const { data, pagination } = await get(store, `${path}?${query}&limit=${limit}&page=${page}`);
    walked.push(...ids(data));
    if (page >= (pagination.totalPages as number)) return walked;
  }
}

/** Follows nextCursor from the first page to the end; every page's total is the list's. */
async function cursorWalk(store: TestStore, path: string, query: string, limit: number, between?: () => Promise<void>) {
  const walked: string[] = [];
  let cursor: string | null = null;
  const totals = new Set<number>();
  for (let pages = 0; pages < 500; pages++) {
    const body = await get(store, `${path}?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(body.pagination.page).toBe(cursor ? null : 1);
    expect(body.data.length).toBeLessThanOrEqual(limit);
    totals.add(body.pagination.total);
    walked.push(...ids(body.data));
    cursor = body.pagination.nextCursor;
    if (!cursor) return { walked, totals };
    await between?.();
  }
  throw new Error('the cursor walk never ended');
}

describe.each(CASES)('$name: updatedSince, updatedAt sorts and cursors (CONTRACT §9.3)', (list) => {
  let store: TestStore;
  let path: string;
  let elsewhere: string;
  beforeAll(async () => {
    store = await t.newStore();
    ({ path, elsewhere } = await list.seed(store));
  });

  it('walks every sort by cursor exactly as by page, nulls included, with exact totals', async () => {
    for (const sort of list.sorts) {
      const whole = await get(store, `${path}?sort=${sort}&limit=250`);
      expect(whole.data.length, sort).toBeGreaterThanOrEqual(5);
      expect(whole.pagination.nextCursor).toBeNull();
      const { walked, totals } = await cursorWalk(store, path, `sort=${sort}`, 2);
      expect(walked, sort).toEqual(ids(whole.data));
      expect([...totals]).toEqual([whole.pagination.total]);
      expect(await pageWalk(store, path, `sort=${sort}`, 2), sort).toEqual(ids(whole.data));
    }
  });

  it('sorts by updatedAt both ways and filters updatedSince (updatedAt >= it)', async () => {
    const ascending = (await get(store, `${path}?sort=updatedAt&limit=250`)).data;
    const times = ascending.map((row) => row.updatedAt);
    expect(times).toEqual([...times].sort());
    const descending = (await get(store, `${path}?sort=-updatedAt&limit=250`)).data;
    expect(descending.map((row) => row.updatedAt)).toEqual([...times].reverse());
    const since = times[2];
    const recent = await get(store, `${path}?sort=updatedAt&limit=250&updatedSince=${since}`);
    expect(ids(recent.data)).toEqual(ids(ascending.filter((row) => row.updatedAt >= since)));
    expect(recent.pagination.total).toBe(recent.data.length);
    // a walk of the recent ones only, by cursor, counts them exactly
    const { walked, totals } = await cursorWalk(store, path, `sort=-updatedAt&updatedSince=${since}`, 1);
    expect(walked).toEqual(ids(recent.data).reverse());
    expect([...totals]).toEqual([recent.data.length]);
    const future = await get(store, `${path}?updatedSince=2999-01-01T00:00:00.000Z`);
    expect(future.data).toEqual([]);
    expect(future.pagination).toMatchObject({ total: 0, totalPages: 0, nextCursor: null });
  });

  it('refuses a bad updatedSince, a cursor of another walk, page with cursor and a garbage cursor (400)', async () => {
    for (const bad of ['yesterday', '2026-11-22', '2026-11-22T10:11:44', '2026-13-40T10:11:44Z']) {
      const error = expectError(await t.call(store, 'GET', `${path}?updatedSince=${bad}`), 400, 'VALIDATION_ERROR');
      expect(error.details.map((detail) => detail.field)).toEqual(['updatedSince']);
    }
    const first = await get(store, `${path}?sort=-createdAt&limit=2`);
    const cursor = encodeURIComponent(first.pagination.nextCursor as string);
    expect((await t.call(store, 'GET', `${path}?sort=-createdAt&limit=2&cursor=${cursor}`)).status).toBe(200);
    const elsewhereUses = [
      `${path}?sort=createdAt&limit=2&cursor=${cursor}`,
      `${path}?sort=-updatedAt&limit=2&cursor=${cursor}`,
      `${path}?sort=-createdAt&limit=3&cursor=${cursor}`,
      `${path}?sort=-createdAt&limit=2&updatedSince=1970-01-01T00:00:00.000Z&cursor=${cursor}`,
      `${path}?sort=-createdAt&limit=2&search=a&cursor=${cursor}`,
      `${elsewhere}?sort=-createdAt&limit=2&cursor=${cursor}`,
      `${path}?sort=-createdAt&limit=2&cursor=not-a-cursor`,
      `${path}?sort=-createdAt&limit=2&cursor=${Buffer.from('{"k":null,"i":"x","h":"y"}').toString('base64url')}`,
      `${path}?sort=-createdAt&limit=2&cursor=${cursor.slice(0, -3)}`,
    ];
    for (const url of elsewhereUses) {
      const error = expectError(await t.call(store, 'GET', url), 400, 'VALIDATION_ERROR');
      expect(error.details, url).toEqual([{ field: 'cursor', in: 'query', message: expect.any(String) }]);
    }
    for (const page of [1, 2]) {
      const error = expectError(
        await t.call(store, 'GET', `${path}?sort=-createdAt&limit=2&page=${page}&cursor=${cursor}`),
        400,
        'VALIDATION_ERROR',
      );
      expect(error.details.map((detail) => detail.field)).toEqual(['page']);
    }
  });
});

describe('a variant change as a sync job sees it', () => {
  it("moves the variant's and its product's updatedAt: both lists show it since then, nothing else", async () => {
    const store = await t.newStore();
    const options = [{ name: 'Size', values: ['S', 'M', 'L'] }];
    const product = await created(store, '/products', { title: 'Tee', options });
    const untouched = await created(store, '/products', { title: 'Other' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const since = new Date().toISOString();
    const variant = (product.variants as Row[])[1];
    expect((await t.call(store, 'PATCH', `/products/${product.id}/variants/${variant.id}`, { price: 12 })).status).toBe(200);
    expect(ids((await get(store, `/products?updatedSince=${since}`)).data)).toEqual([product.id]);
    expect(ids((await get(store, `/products/${product.id}/variants?updatedSince=${since}`)).data)).toEqual([variant.id]);
    expect(ids((await get(store, `/products?sort=-updatedAt`)).data)).toEqual([product.id, untouched.id]);
  });
});
