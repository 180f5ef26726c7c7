import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { importCsv } from '../../test/support/csv.fixtures.js';
import { type StoreRecords, seedRecords } from '../../test/support/records.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(async () => t?.close());

const RESOURCES = [
  ['products', '/products'],
  ['collections', '/collections'],
  ['attributes', '/attributes'],
  ['attributeSets', '/attribute-sets'],
  ['customers', '/customers'],
  ['orders', '/orders'],
] as const;

/** The bytes of `data` in a raw GET body `{"success":true,"data":…}`. */
function dataBytes(raw: string): string {
  const prefix = '{"success":true,"data":';
  expect(raw.startsWith(prefix)).toBe(true);
  return raw.slice(prefix.length, -1);
}

async function rawGet(store: TestStore | string, url: string) {
  const credential = typeof store === 'string' ? store : store.token;
  return t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${credential}` } });
}

const lines = (body: string) => body.split('\n').filter(Boolean);

describe('GET /exports/{resource}', () => {
  let store: TestStore;
  let records: StoreRecords;
  beforeAll(async () => {
    store = await t.newStore();
    records = await seedRecords(t, store);
  });

  it.each(RESOURCES)('%s: each line is the bytes GET of that record returns, in id order', async (name, path) => {
    const reply = await rawGet(store, `/exports/${name}`);
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('application/x-ndjson');
    const got = lines(reply.body);
    expect(reply.body.endsWith('\n')).toBe(true);
    expect(Number(reply.headers['x-total-count'])).toBe(got.length);
    expect(got.length).toBeGreaterThan(0);
    const ids = got.map((line) => JSON.parse(line).id as string);
    expect(ids).toEqual([...ids].sort());
    for (const [index, id] of ids.entries()) {
      const single = await rawGet(store, `${path}/${id}`);
      expect(single.statusCode).toBe(200);
      expect(got[index]).toBe(dataBytes(single.body));
    }
  });

  it('products carry their variants and collections as GET shows them', async () => {
    const reply = await rawGet(store, '/exports/products');
    const [product] = lines(reply.body).map((line) => JSON.parse(line));
    expect(product.id).toBe(records.product);
    expect(product.variants).toHaveLength(2);
    expect(product.selectedCollection).toEqual([records.collection]);
  });

  it('updatedSince keeps records updated at or after it; a bad date-time is a 400', async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const cut = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const patched = await t.call(store, 'PATCH', `/attribute-sets/${records.attributeSet}`, { name: 'Clothes' });
    expect(patched.status).toBe(200);
    const since = await rawGet(store, `/exports/attributeSets?updatedSince=${encodeURIComponent(cut)}`);
    expect(lines(since.body).map((line) => JSON.parse(line).id)).toEqual([records.attributeSet]);
    expect(since.headers['x-total-count']).toBe('1');
    const future = await rawGet(store, `/exports/products?updatedSince=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(future.statusCode).toBe(200);
    expect(future.body).toBe('');
    expect(future.headers['x-total-count']).toBe('0');
    const all = await rawGet(store, `/exports/attributeSets?updatedSince=${encodeURIComponent(before)}`);
    expect(lines(all.body)).toHaveLength(1);
    const bad = await t.call(store, 'GET', '/exports/products?updatedSince=yesterday');
    expect(expectError(bad, 400, 'VALIDATION_ERROR').details[0]).toMatchObject({ field: 'updatedSince', in: 'query' });
  });

  it("another store's export never shows this store's records", async () => {
    const other = await t.newStore();
    await t.call(other, 'POST', '/products', { title: 'Other' });
    for (const [name] of RESOURCES) {
      const reply = await rawGet(other, `/exports/${name}`);
      expect(reply.statusCode).toBe(200);
      for (const line of lines(reply.body)) expect(Object.values(records)).not.toContain(JSON.parse(line).id);
    }
    expect(lines((await rawGet(other, '/exports/products')).body)).toHaveLength(1);
  });

  it('needs the read scope of its resource', async () => {
    // records.apiKeyValue has products:read only
    expect((await rawGet(records.apiKeyValue, '/exports/products')).statusCode).toBe(200);
    const denied = await t.call(records.apiKeyValue, 'GET', '/exports/orders');
    expectError(denied, 403, 'FORBIDDEN');
    expectError(await t.call(records.apiKeyValue, 'GET', '/exports/attributeSets'), 403, 'FORBIDDEN');
    expectError(await t.call(null, 'GET', '/exports/products'), 401, 'UNAUTHORIZED');
    expectError(await t.call(store, 'GET', '/exports/variants'), 404, 'NOT_FOUND');
  });

  it('says how consistent it is', async () => {
    const reply = await rawGet(store, '/exports/orders');
    expect(reply.headers['x-export-consistency']).toBe(engine === 'postgres' ? 'snapshot' : 'per-chunk');
  });
});

describe('exports of products and customers', () => {
  /**
   * Two records, one with its stored document marked (still current: its row is the version it was written
   * for), one changed past the write door (its document is stale): the export sends the first's document and
   * builds the second from its row, in NDJSON and in the Shopify CSV alike.
   */
  it.each([
    ['products', '/products', 'title', { title: 'Plain' }, 'Title'],
    ['customers', '/customers', 'first_name', { userName: 'u', password: 'long-secret-1', firstName: 'Plain' }, 'First Name'],
  ] as const)('%s: a line is the stored document while it is current, else the record built from its row', async (name, path, column, body, header) => {
    const store = await t.newStore();
    const ids: string[] = [];
    for (const suffix of ['a', 'b']) {
      const unique = 'userName' in body ? { userName: `${body.userName}${suffix}` } : {};
      ids.push((await t.call(store, 'POST', path, { ...body, ...unique })).body.data.id);
    }
    const [documented, changed] = ids.sort();
    const documents = sql.table(name === 'products' ? 'product_documents' : 'customer_documents');
    const key = sql.ref(name === 'products' ? 'product_id' : 'customer_id');
    await sql`UPDATE ${documents} SET body = replace(body, '"Plain"', '"FromDocument"') WHERE store_id = ${store.id} AND ${key} = ${documented}`.execute(
      t.database.db,
    );
    await sql`UPDATE ${sql.table(name)} SET ${sql.ref(column)} = 'FromRow' WHERE store_id = ${store.id} AND id = ${changed}`.execute(
      t.database.db,
    );

    const ndjson = lines((await rawGet(store, `/exports/${name}`)).body).map((line) => JSON.parse(line));
    const field = name === 'products' ? 'title' : 'firstName';
    expect(ndjson.map((record) => [record.id, record[field]])).toEqual([
      [documented, 'FromDocument'],
      [changed, 'FromRow'],
    ]);
    const csv = (await rawGet(store, `/exports/${name}?format=shopify`)).body.split('\n');
    const at = csv[0].split(',').indexOf(header);
    expect(csv.slice(1, 3).map((row) => row.split(',')[at])).toEqual(['FromDocument', 'FromRow']);
  });
});

describe('the migration guide example (examples/shopify-products.csv)', () => {
  it('imports as it is (text/csv), and exports back to the same file with format=shopify', async () => {
    const store = await t.newStore();
    const file = readFileSync('examples/shopify-products.csv', 'utf8');
    const { job, errors } = await importCsv(t, store, 'products', file);
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ status: 'succeeded', created: 2, failed: 0 });
    const exported = lines((await rawGet(store, '/exports/products')).body).map((line) => JSON.parse(line));
    const tee = exported.find((product) => product.handle === 'classic-tee');
    expect(tee.variants.map((variant: { sku: string; stock: number }) => [variant.sku, variant.stock])).toEqual([
      ['TEE-S-BLK', 12],
      ['TEE-S-WHT', 3],
      ['TEE-M-BLK', 0],
      ['TEE-M-WHT', 7],
    ]);
    expect(exported.find((product) => product.handle === 'gift-card')).toMatchObject({ status: 'disabled', sku: 'GIFT', totalStock: 100 });
    const csv = (await rawGet(store, '/exports/products?format=shopify')).body;
    expect(csv.split('\n')[0]).toMatch(/^Title,URL handle,Description,/);
    const again = await importCsv(t, store, 'products', csv);
    expect(again.job).toMatchObject({ status: 'succeeded', created: 0, updated: 2, failed: 0 });
  });
});
