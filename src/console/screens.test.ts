import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { type ConsoleClient, signIn } from '../../test/support/console.fixtures.js';
import { type StoreRecords, seedRecords } from '../../test/support/records.fixtures.js';

/** The read screens through app.inject: what they show, escaping, and one store's session against another's ids. */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const EVIL = '<img src=x onerror=alert(1)></script>';
const ESCAPED = '&#60;img src&#61;x onerror&#61;alert(1)&#62;&#60;/script&#62;';

/** Nothing of the markup came through as markup: our one script tag is the page's only `</script>`. */
function expectInert(body: string, where: string) {
  expect(body, where).not.toContain('<img');
  expect(body.split('</script>').length - 1, where).toBe(1);
}

/** The JSON block of a record page, unescaped back to its text. */
function jsonOf(body: string): unknown {
  const match = /<pre class="json"[^>]*>([\s\S]*?)<\/pre>/.exec(body);
  if (!match) throw new Error('no JSON block');
  const text = match[1].replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)));
  return JSON.parse(text);
}

async function created(store: TestStore, url: string, body: unknown) {
  const reply = await t.call(store, 'POST', url, body);
  if (reply.status !== 201) throw new Error(`POST ${url}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.data as { id: string };
}

describe('console read screens', () => {
  let store: TestStore;
  let console: ConsoleClient;
  let records: StoreRecords;
  let evil: { product: string; customer: string; collection: string; order: string };
  beforeAll(async () => {
    store = await t.newStore();
    records = await seedRecords(t, store);
    const collection = await created(store, '/collections', { title: EVIL });
    const product = await created(store, '/products', {
      title: EVIL,
      vendor: EVIL,
      price: 5,
      customFields: { note: EVIL },
      options: [{ name: 'Size', values: [EVIL, 'M'] }],
      selectedCollections: [collection.id],
    });
    const customer = await created(store, '/customers', {
      userName: 'eve',
      firstName: EVIL,
      password: 'long-secret-1',
      address: { city: EVIL },
    });
    const order = await created(store, '/orders', {
      cartItems: [{ productId: product.id, title: EVIL, price: 5, quantity: 2 }],
      subTotal: 10,
      totalAmount: 10,
      userId: customer.id,
    });
    evil = { product: product.id, customer: customer.id, collection: collection.id, order: order.id };
    console = await signIn(t.app, store);
  });

  it('lists and shows records with their JSON exactly as the API answers it', async () => {
    for (const [list, resource, id] of [
      ['/console/products', 'products', records.product],
      ['/console/customers', 'customers', records.customer],
      ['/console/orders', 'orders', records.order],
      ['/console/collections', 'collections', records.collection],
    ] as const) {
      const page = await console.get(list);
      expect(page.status, list).toBe(200);
      expect(page.body, list).toContain(`href="/console/${resource}/${id}"`);
      expect(page.body, list).toMatch(/<label for="filter-search">Search<\/label>/);
      const record = await console.get(`/console/${resource}/${id}`);
      expect(record.status, resource).toBe(200);
      const api = await t.call(store, 'GET', `/${resource}/${id}`);
      expect(jsonOf(record.body), resource).toEqual(api.body);
    }
    const product = await console.get(`/console/products/${records.product}`);
    for (const heading of ['Options', 'Variants', 'Images', 'Custom fields']) expect(product.body).toContain(`<h2>${heading}</h2>`);
    const customer = await console.get(`/console/customers/${records.customer}`);
    expect(customer.body).toContain('<td>Paris</td>');
  });

  it('shows the overview: counts from the API, jobs, the newest event', async () => {
    const page = await console.get('/console');
    expect(page.status).toBe(200);
    const cards = Object.fromEntries(
      [...page.body.matchAll(/<div class="card"><div>([^<]+)<\/div><div class="value">([^<]+)<\/div>/g)].map((m) => [m[1], m[2]]),
    );
    const products = await t.call(store, 'GET', '/products?limit=1');
    expect(cards.Products).toBe(String(products.body.pagination.total));
    expect(Number(cards.Variants)).toBeGreaterThanOrEqual(2);
    expect(cards.Orders).toBe('2');
    expect(cards['Newest event']).toMatch(/seconds ago|minutes ago/);
  });

  it('filters products by the API list filters and pages by cursor, without a total', async () => {
    const disabled = await console.get('/console/products?status=disabled&search=Tee');
    expect(disabled.status, disabled.body.slice(-300)).toBe(200);
    expect(disabled.body).not.toContain(`/console/products/${records.product}"`);
    for (let i = 0; i < 51; i++) await created(store, '/products', { title: `Bulk ${i}`, price: 1 });
    const first = await console.get('/console/products');
    const next = /<a href="([^"]+)" rel="next">Next page<\/a>/.exec(first.body)?.[1].replaceAll('&#38;', '&').replaceAll('&#61;', '=');
    expect(next).toMatch(/^\/console\/products\?cursor=/);
    const second = await console.get(next as string);
    expect(second.status).toBe(200);
    expect(second.body).toContain(`/console/products/${records.product}"`);
    expect(first.body).not.toMatch(/total/i);
  });

  it('shows markup in titles, custom fields, names, addresses and order lines as text on every screen', async () => {
    for (const url of [
      '/console/products',
      `/console/products/${evil.product}`,
      '/console/collections',
      `/console/collections/${evil.collection}`,
      '/console/customers',
      `/console/customers/${evil.customer}`,
      '/console/orders',
      `/console/orders/${evil.order}`,
    ]) {
      const page = await console.get(url);
      expect(page.status, url).toBe(200);
      expectInert(page.body, url);
    }
    const product = await console.get(`/console/products/${evil.product}`);
    expect(product.body).toContain(`<h1>${ESCAPED}</h1>`);
    expect(product.body).toContain(`<td>note</td><td>${ESCAPED}</td>`);
  });

  it("reaches nothing of another store: every record page with its ids is not found, its lists don't show them", async () => {
    const other = await t.newStore();
    const theirs = await seedRecords(t, other);
    for (const url of [
      `/console/products/${theirs.product}`,
      `/console/collections/${theirs.collection}`,
      `/console/collections/${theirs.smartCollection}`,
      `/console/customers/${theirs.customer}`,
      `/console/orders/${theirs.order}`,
    ]) {
      const page = await console.get(url);
      expect(page.status, url).toBe(404);
      expect(page.body, url).toContain('not found');
    }
    for (const list of ['/console/products', '/console/collections', '/console/customers', '/console/orders']) {
      const page = await console.get(list);
      for (const id of Object.values(theirs)) expect(page.body, list).not.toContain(id);
    }
  });

  it('creates an API key shown once, revokes it, and refuses both without the CSRF token', async () => {
    const before = (await t.call(store, 'GET', '/api-keys')).body.data.length;
    expect((await console.post('/console/api-keys', { name: 'no token', scopes: 'products:read' })).status).toBe(403);
    expect((await t.call(store, 'GET', '/api-keys')).body.data.length).toBe(before);

    const created = await console.post('/console/api-keys', { _csrf: console.csrf, name: `sync ${EVIL}`, scopes: 'products:read' });
    expect(created.status).toBe(200);
    const key = /(sfk_[A-Za-z0-9]{32,})/.exec(created.body)?.[1] as string;
    expect(key).toBeTruthy();
    expectInert(created.body, 'created key');
    expect((await t.call(key, 'GET', '/products')).status).toBe(200);
    const list = await console.get('/console/api-keys');
    expect(list.body).not.toContain(key);
    expect(list.body).toContain('>Create key</button>');

    const id = (await t.call(store, 'GET', '/api-keys')).body.data.find((k: { name: string }) => k.name === `sync ${EVIL}`).id;
    expect((await console.post(`/console/api-keys/${id}/revoke`, {})).status).toBe(403);
    expect((await t.call(key, 'GET', '/products')).status).toBe(200);
    const revoked = await console.post(`/console/api-keys/${id}/revoke`, { _csrf: console.csrf });
    expect(revoked.status).toBe(303);
    expect((await t.call(key, 'GET', '/products')).status).toBe(401);
    const after = await console.get('/console/api-keys');
    expect(after.body).toMatch(/sync &#60;img[^<]*<\/td>.*?<td>revoked \d{4}-/);
    expect(after.body).not.toContain(`action="/console/api-keys/${id}/revoke"`);

    const other = await t.newStore();
    const theirs = await seedRecords(t, other);
    expect((await console.post(`/console/api-keys/${theirs.apiKey}/revoke`, { _csrf: console.csrf })).status).toBe(404);
    expect((await t.call(theirs.apiKeyValue, 'GET', '/products')).status).toBe(200);
  });
});
