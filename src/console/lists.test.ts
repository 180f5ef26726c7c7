import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStatements, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { type ConsoleClient, signIn } from '../../test/support/console.fixtures.js';

/**
 * The console's Collections, Customers and Orders lists (list-screen.ts, CONTRACT §12): pages of 50 by cursor,
 * "Next page" and "Previous page" keeping the filters, no count statement of any kind (every statement the app
 * sends is seen by the observer), a store's session sees only its rows, markup as text.
 */

let t: TestContext;
const statements: string[] = [];
beforeAll(async () => {
  t = await setupTestApp({}, recordStatements(statements));
});
afterAll(() => t.close());

const EVIL = '<img src=x onerror=alert(1)></script>';
const PAGE = 50;

/** The statements `read` sends that count something. */
async function countsOf(read: () => Promise<unknown>): Promise<string[]> {
  const before = statements.length;
  await read();
  return statements.slice(before).filter((text) => /\bcount\s*\(/i.test(text));
}

/** The record ids a list page links to, in order. */
const idsOf = (body: string, resource: string) =>
  [...body.matchAll(new RegExp(`<a href="/console/${resource}/([0-9a-f]{24})">`, 'g'))].map((match) => match[1]);

/** The href of the pager's link `rel`, unescaped (ghtml writes `&` and `=` as character references). */
const pagerLink = (body: string, rel: 'next' | 'prev') =>
  new RegExp(`<a href="([^"]+)" rel="${rel}">`).exec(body)?.[1].replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)));

async function created(store: TestStore, url: string, body: unknown): Promise<string> {
  const reply = await t.call(store, 'POST', url, body);
  if (reply.status !== 201) throw new Error(`POST ${url}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.data.id;
}

/** `count` records of a resource, oldest first; the list shows them newest first. */
async function seed(store: TestStore, resource: string, count: number, body: (i: number) => unknown): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await created(store, `/${resource}`, body(i)));
  return ids;
}

const order = (productId: string, status: string, title = 'Tee') => ({
  cartItems: [{ productId, title, price: 5, quantity: 1 }],
  subTotal: 5,
  totalAmount: 5,
  orderStatus: status,
});

describe("the console's Collections, Customers and Orders lists", () => {
  let store: TestStore;
  let other: TestStore;
  let console: ConsoleClient;
  const ids: Record<string, string[]> = {};
  const theirs: string[] = [];
  let product: string;
  beforeAll(async () => {
    store = await t.newStore();
    other = await t.newStore();
    product = await created(store, '/products', { title: 'Tee', price: 5 });
    const theirProduct = await created(other, '/products', { title: 'Tee', price: 5 });
    // 53 of each kind: a page of 50 and one of 3; orders: 53 "pending" among 8 "fulfilled" to filter by
    ids.collections = await seed(store, 'collections', PAGE + 3, (i) => ({ title: `Shelf ${i}` }));
    ids.customers = await seed(store, 'customers', PAGE + 3, (i) => ({
      userName: `c${i}`,
      firstName: `Buyer ${i}`,
      password: 'long-secret-1',
    }));
    const mixed = await seed(store, 'orders', PAGE + 3 + 8, (i) => order(product, i % 7 === 3 && i < 56 ? 'fulfilled' : 'pending'));
    ids.orders = mixed.filter((_, i) => !(i % 7 === 3 && i < 56));
    expect(ids.orders).toHaveLength(PAGE + 3);
    theirs.push(await created(other, '/collections', { title: 'Shelf theirs' }));
    theirs.push(await created(other, '/customers', { userName: 'them', firstName: 'Buyer theirs', password: 'long-secret-1' }));
    theirs.push(await created(other, '/orders', order(theirProduct, 'pending')));
    console = await signIn(t.app, store);
  });

  for (const [resource, filter] of [
    ['collections', 'search=Shelf'],
    ['customers', 'search=Buyer'],
    ['orders', 'status=pending&paymentStatus='],
  ] as const) {
    it(`${resource}: next and previous pages keep the filters, count nothing and show only the store's rows`, async () => {
      const newestFirst = [...ids[resource]].reverse();
      let first = { status: 0, body: '' };
      expect(await countsOf(async () => (first = await console.get(`/console/${resource}?${filter}`)))).toEqual([]);
      expect(first.status).toBe(200);
      expect(idsOf(first.body, resource)).toEqual(newestFirst.slice(0, PAGE));
      expect(pagerLink(first.body, 'prev')).toBeUndefined();
      const next = pagerLink(first.body, 'next') as string;
      expect(next).toMatch(new RegExp(`^/console/${resource}\\?${filter.replace(/&?\w+=(?=&|$)/g, '')}&cursor=`));

      let second = { status: 0, body: '' };
      expect(await countsOf(async () => (second = await console.get(next)))).toEqual([]);
      expect(idsOf(second.body, resource)).toEqual(newestFirst.slice(PAGE));
      expect(pagerLink(second.body, 'next')).toBeUndefined();
      const prev = pagerLink(second.body, 'prev') as string;
      expect(prev).toMatch(new RegExp(`^/console/${resource}\\?${filter.replace(/&?\w+=(?=&|$)/g, '')}&before=`));

      let back = { status: 0, body: '' };
      expect(await countsOf(async () => (back = await console.get(prev)))).toEqual([]);
      expect(back.status).toBe(200);
      expect(idsOf(back.body, resource)).toEqual(newestFirst.slice(0, PAGE));
      // the first page again: nothing before it, the same next page after it
      expect(pagerLink(back.body, 'prev')).toBeUndefined();
      expect(idsOf((await console.get(pagerLink(back.body, 'next') as string)).body, resource)).toEqual(newestFirst.slice(PAGE));

      for (const page of [first, second, back]) for (const id of theirs) expect(page.body).not.toContain(id);
    });
  }

  it('refuses a cursor of one direction passed as the other, and both together, naming the field', async () => {
    const first = await console.get('/console/customers');
    const cursor = new URLSearchParams((pagerLink(first.body, 'next') as string).split('?')[1]).get('cursor') as string;
    const swapped = await console.get(`/console/customers?before=${encodeURIComponent(cursor)}`);
    expect(swapped.status).toBe(400);
    expect(swapped.body).toContain('before');
    const second = await console.get(`/console/customers?cursor=${encodeURIComponent(cursor)}`);
    const before = new URLSearchParams((pagerLink(second.body, 'prev') as string).split('?')[1]).get('before') as string;
    const both = await console.get(`/console/customers?cursor=${encodeURIComponent(cursor)}&before=${encodeURIComponent(before)}`);
    expect(both.status).toBe(400);
    expect(both.body).toContain('before');
    // a filter the API refuses is refused here too (the API list query's own schema), naming it
    const long = await console.get(`/console/orders?status=${'x'.repeat(256)}`);
    expect(long.status).toBe(400);
    expect(long.body).toContain('status');
  });

  it('shows markup in names, titles and the search box as text, in the rows and in the pager links', async () => {
    await created(store, '/collections', { title: `Shelf ${EVIL}` });
    await created(store, '/customers', { userName: 'evil', firstName: `Buyer ${EVIL}`, password: 'long-secret-1' });
    await created(store, '/orders', order(product, 'pending', EVIL));
    for (const url of [
      `/console/collections?search=${encodeURIComponent(`Shelf ${EVIL}`)}`,
      `/console/customers?search=${encodeURIComponent(EVIL)}`,
      '/console/customers',
      '/console/collections',
      `/console/orders?status=${encodeURIComponent(EVIL)}`,
    ]) {
      const page = await console.get(url);
      expect(page.status, url).toBe(200);
      expect(page.body, url).not.toContain('<img');
      expect(page.body.split('</script>').length - 1, url).toBe(1);
    }
    const listed = await console.get('/console/customers');
    expect(listed.body).toContain('Buyer &#60;img src&#61;x onerror&#61;alert(1)&#62;&#60;/script&#62;');
    expect(pagerLink(listed.body, 'next')).toMatch(/^\/console\/customers\?cursor=/);
  });

  it('API keys: "Search" finds keys by name, prefix or scope, markup as text', async () => {
    for (const [name, scopes] of [
      ['sync job', ['products:read']],
      [`reporting ${EVIL}`, ['orders:read']],
    ] as const) {
      expect((await t.call(store, 'POST', '/api-keys', { name, scopes })).status).toBe(201);
    }
    const named = await console.get('/console/api-keys?search=SYNC');
    expect(named.status).toBe(200);
    expect(named.body).toContain('<td>sync job</td>');
    expect(named.body).not.toContain('reporting');
    const scoped = await console.get('/console/api-keys?search=orders%3Aread');
    expect(scoped.body).toContain('reporting &#60;img');
    expect(scoped.body).not.toContain('<td>sync job</td>');
    expect(scoped.body).not.toContain('<img');
    expect((await console.get('/console/api-keys')).body).toContain('<td>sync job</td>');
  });

  it("a collection's page lists its first 50 members without counting, and links to all of them", async () => {
    const smart = await created(store, '/collections', {
      title: 'Cheap',
      collectionType: 'smart',
      matchType: 'all condition',
      conditions: [{ field: 'price', operator: 'less_than', value: '3' }],
    });
    const cheap = [];
    for (let i = 0; i < PAGE + 1; i++) cheap.push(await created(store, '/products', { title: `Cheap ${i}`, price: 2 }));
    let page = { status: 0, body: '' };
    expect(await countsOf(async () => (page = await console.get(`/console/collections/${smart}`)))).toEqual([]);
    expect(page.status).toBe(200);
    expect(idsOf(page.body, 'products')).toEqual([...cheap].reverse().slice(0, PAGE));
    expect(page.body).toContain(`<a href="/console/products?collection=${smart}">All members</a>`);
    const all = await console.get(`/console/products?collection=${smart}`);
    expect(idsOf(all.body, 'products')).toEqual([...cheap].reverse().slice(0, PAGE));
    const rest = await console.get(pagerLink(all.body, 'next') as string);
    expect(idsOf(rest.body, 'products')).toEqual([cheap[0]]);
    // another store's collection id lists nothing of it
    const theirs = await created(other, '/collections', { title: 'Theirs' });
    expect(idsOf((await console.get(`/console/products?collection=${theirs}`)).body, 'products')).toEqual([]);
  });
});
