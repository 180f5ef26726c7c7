import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStatements, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { type ConsoleClient, signIn } from '../../test/support/console.fixtures.js';

/**
 * The console's product list counts nothing (CONTRACT §12: as fast at a million products as at a thousand):
 * searched and filtered pages, whose API list counts its matches, run no count statement here. Every
 * statement the app sends is seen by the observer.
 */

let t: TestContext;
const statements: string[] = [];
beforeAll(async () => {
  t = await setupTestApp({}, recordStatements(statements));
});
afterAll(() => t.close());

/**
 * The statements `read` sends that count something, but for the listed products' own variants (a row's
 * `variantCount`: each of the page's rows, not the list's matches).
 */
async function countsOf(read: () => Promise<unknown>): Promise<string[]> {
  const before = statements.length;
  await read();
  const ownVariants =
    /\(SELECT count\(\*\)::int FROM variants v WHERE v\.store_id = products\.store_id AND v\.product_id = products\.id\)/g;
  // A search alone is kept (src/reads/search-cache.ts): its one full search per catalog version counts the matches
  // it materializes anyway, to keep them; the pages after it count nothing ("reads a search alone …" below).
  const keptSearch = (text: string) => text.includes('list_ordered AS MATERIALIZED');
  return statements.slice(before).filter((text) => !keptSearch(text) && /\bcount\s*\(/i.test(text.replace(ownVariants, '')));
}

/** The statements `read` sends that search the catalog in full (a materialized set of every match). */
async function fullSearchesOf(read: () => Promise<unknown>): Promise<string[]> {
  const before = statements.length;
  await read();
  return statements.slice(before).filter((text) => text.includes('list_matches AS MATERIALIZED'));
}

const titlesOf = (body: string) => [...body.matchAll(/<a href="\/console\/products\/[0-9a-f]{24}">([^<]*)<\/a>/g)].map((m) => m[1]);

describe("the console's product list", () => {
  let store: TestStore;
  let console: ConsoleClient;
  beforeAll(async () => {
    store = await t.newStore();
    for (const [title, vendor, productType, tags, status] of [
      ['Classic Tee', 'Acme', 'Shirts', ['summer'], 'active'],
      ['Mug', 'Acme', 'Kitchen', ['gift'], 'active'],
      ['Old Tee', 'Other', 'Shirts', ['summer'], 'disabled'],
    ] as const) {
      const reply = await t.call(store, 'POST', '/products', { title, vendor, productType, tags, status, price: 5 });
      expect(reply.status).toBe(201);
    }
    console = await signIn(t.app, store);
  });

  it('filters and searches as the API does, without a count statement (the API counts the same lists)', async () => {
    for (const [query, titles] of [
      ['search=tee', ['Old Tee', 'Classic Tee']],
      ['vendor=acme', ['Mug', 'Classic Tee']],
      ['productType=Shirts', ['Old Tee', 'Classic Tee']],
      ['tag=summer&status=active', ['Classic Tee']],
      ['search=tee&vendor=Other&status=&tag=', ['Old Tee']],
    ] as const) {
      let page = { status: 0, body: '' };
      expect(await countsOf(async () => (page = await console.get(`/console/products?${query}`))), query).toEqual([]);
      expect(page.status, query).toBe(200);
      expect(titlesOf(page.body), query).toEqual(titles);
      // the API's list of the same query counts its matches (exact totals, CONTRACT §5): the observer sees it
      const api = await t.call(store, 'GET', `/products?${query.replace(/&?\w+=(?=&|$)/g, '')}`);
      expect(api.body.pagination.total, query).toBe(titles.length);
    }
    expect(await countsOf(() => t.call(store, 'GET', '/products?vendor=acme&limit=7'))).not.toEqual([]);
  });

  it("shows each product's listed fields as GET /products/{id} sends them, without reading its document", async () => {
    const created = await t.call(store, 'POST', '/products', {
      title: 'Sized',
      vendor: 'Acme',
      productType: 'Shirts',
      price: 2,
      options: [
        { name: 'Size', values: ['S', 'M'] },
        { name: 'Color', values: ['Red', 'Blue'] },
      ],
    });
    expect(created.status).toBe(201);
    const product = (await t.call(store, 'GET', `/products/${created.body.data.id}`)).body.data;
    const before = statements.length;
    const page = await console.get('/console/products?search=sized');
    expect(statements.slice(before).filter((text) => text.includes('product_documents'))).toEqual([]);
    const cells = [product.status, product.vendor, product.productType, product.variants.length, product.totalStock, product.updatedAt];
    expect(product.variants).toHaveLength(4);
    expect(page.body).toContain(
      `<tr><td><a href="/console/products/${product.id}">Sized</a></td>${cells.map((cell) => `<td>${cell ?? ''}</td>`).join('')}</tr>`,
    );
    expect((await t.call(store, 'DELETE', `/products/${product.id}`)).status).toBe(200);
  });

  it('pages by cursor', async () => {
    for (let i = 0; i < 50; i++) await t.call(store, 'POST', '/products', { title: `Bulk ${i}`, vendor: 'Acme', price: 1 });
    const first = await console.get('/console/products?vendor=Acme');
    expect(titlesOf(first.body)).toHaveLength(50);
    const next = /<a href="([^"]+)" rel="next">Next page<\/a>/.exec(first.body)?.[1].replaceAll('&#38;', '&').replaceAll('&#61;', '=');
    expect(next).toMatch(/^\/console\/products\?vendor=Acme&cursor=/);
    const second = await console.get(next as string);
    expect(titlesOf(second.body)).toEqual(['Mug', 'Classic Tee']);
    expect(second.body).not.toContain('rel="next"');
  });

  it("reads a search alone from the matches kept by its first page, its own or the API's: a page then costs its rows, not the matches (issue 42)", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await t.call(store, 'POST', '/products', { title: `Kept ${i}`, price: 1 })).body.data.id);
    const page = async (url: string) => titlesOf((await console.get(url)).body);
    let titles: string[] = [];
    expect(await fullSearchesOf(async () => (titles = await page('/console/products?search=kept')))).toHaveLength(1);
    expect(titles).toEqual(['Kept 2', 'Kept 1', 'Kept 0']);
    // the same page again: from the kept ids, no search and no count
    expect(await fullSearchesOf(async () => (titles = await page('/console/products?search=kept')))).toEqual([]);
    expect(titles).toEqual(['Kept 2', 'Kept 1', 'Kept 0']);
    expect(await countsOf(() => page('/console/products?search=kept'))).toEqual([]);
    // a product written since moves the store's catalog version: the page searches again and shows it
    expect((await t.call(store, 'PATCH', `/products/${ids[0]}`, { title: 'Kept 0 again' })).status).toBe(200);
    expect(await fullSearchesOf(async () => (titles = await page('/console/products?search=kept')))).toHaveLength(1);
    expect(titles).toEqual(['Kept 2', 'Kept 1', 'Kept 0 again']);
    // one cache for the app: a search the API kept is the console's too
    expect((await t.call(store, 'GET', '/products?search=ept 1')).body.pagination.total).toBe(1);
    expect(await fullSearchesOf(async () => (titles = await page('/console/products?search=ept%201')))).toEqual([]);
    expect(titles).toEqual(['Kept 1']);
    // with another filter, or past the first page by cursor, a search is read in full (search-cache.ts keeps a search alone)
    expect(await fullSearchesOf(() => page('/console/products?search=kept&status=active'))).toHaveLength(1);
  });

  it("a product's page shows its images with their alt texts and its collections, markup as text", async () => {
    const evil = '<img src=x onerror=alert(1)>';
    const collection = (await t.call(store, 'POST', '/collections', { title: `Summer ${evil}` })).body.data.id;
    const created = await t.call(store, 'POST', '/products', {
      title: 'Pictured',
      price: 3,
      images: ['https://example.com/a.jpg', 'https://example.com/b.jpg'],
      customFields: { 'Image Alt Text #2': `Back ${evil}` },
      selectedCollections: [collection],
    });
    expect(created.status).toBe(201);
    const page = await console.get(`/console/products/${created.body.data.id}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<td>2<\/td><td><a href="https:\/\/example.com\/b.jpg"[^>]*>[^<]+<\/a><\/td><td>Back &#60;img/);
    expect(page.body).toContain(`<a href="/console/collections/${collection}">Summer &#60;img`);
    expect(page.body).not.toContain('<img');
  });

  it("a product's page shows its stock per location (CONTRACT §12, §13), an inactive location marked", async () => {
    const created = await t.call(store, 'POST', '/products', {
      title: 'Stocked',
      price: 4,
      options: [{ name: 'Size', values: ['S', 'M'] }],
    });
    expect(created.status).toBe(201);
    const [small, medium] = created.body.data.variants as { id: string; attributes: Record<string, string> }[];
    const shop = (await t.call(store, 'POST', '/locations', { name: 'Shop <b>1</b>' })).body.data.id;
    const depot = (await t.call(store, 'POST', '/locations', { name: 'Depot' })).body.data.id;
    const productId = created.body.data.id;
    const set = await t.call(store, 'POST', '/inventory-levels/set', {
      items: [
        { productId, variantId: small.id, locationId: shop, available: 7 },
        { productId, variantId: medium.id, locationId: depot, available: 3 },
      ],
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect((await t.call(store, 'PATCH', `/locations/${depot}`, { active: false })).status).toBe(200);
    const page = await console.get(`/console/products/${productId}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h2>Stock per location</h2>');
    expect(page.body).toContain(`<td>${small.attributes.Size}</td><td>Shop &#60;b&#62;1&#60;/b&#62;</td><td>7</td>`);
    expect(page.body).toContain(`<td>${medium.attributes.Size}</td><td>Depot (inactive)</td><td>3</td>`);
  });
});
