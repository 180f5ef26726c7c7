import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { runCli } from '../../test/support/cli.fixtures.js';

/**
 * `storefront price-lists …` and `storefront prices` against the real server (CONTRACT §14): what they print,
 * what they leave in the store, and their one-line failures and exit codes.
 */

const dir = mkdtempSync(join(tmpdir(), 'storefront-cli-prices-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let t: TestContext;
let store: TestStore;
let env: Record<string, string>;
beforeAll(async () => {
  t = await setupTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  store = await t.newStore();
  const key = (await t.call(store, 'POST', '/api-keys', { name: 'cli', scopes: ['products:read', 'products:write'] })).body.data.key;
  env = { STOREFRONT_URL: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`, STOREFRONT_API_KEY: key };
});
afterAll(async () => t?.close());

/** The CLI with the server's URL and key; its stdout as JSON when it succeeded. */
async function cli(args: string[], input?: string) {
  const run = await runCli(args, env, input);
  return { ...run, json: run.code === 0 ? JSON.parse(run.stdout) : undefined };
}

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const product = async (body: object) => (await t.call(store, 'POST', '/products', body)).body.data;
const storedPrices = async (listId: string) =>
  (await t.call(store, 'GET', `/price-lists/${listId}/prices?limit=250&sort=createdAt`)).body.data;

describe('storefront price-lists and prices (against the real server)', () => {
  it('create, get, update, list and delete a list, printing what the API answers', async () => {
    const created = await cli([
      'price-lists',
      'create',
      '--name',
      'Wholesale',
      '--currency',
      'USD',
      '--customer-tags',
      'b2b, vip',
      '--adjustment',
      'percentageDecrease:12.5',
      '--starts-at',
      '2026-12-01T00:00:00Z',
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.json).toMatchObject({
      name: 'Wholesale',
      currency: 'USD',
      status: 'active',
      customerTags: ['b2b', 'vip'],
      adjustment: { type: 'percentageDecrease', value: 12.5 },
      startsAt: '2026-12-01T00:00:00.000Z',
    });
    const id = created.json.id;
    expect((await cli(['price-lists', 'get', '--id', id])).json).toEqual(created.json);
    const updated = await cli([
      'price-lists',
      'update',
      '--id',
      id,
      '--status',
      'draft',
      '--adjustment',
      'none',
      '--starts-at',
      'none',
      '--customer-tags',
      '',
    ]);
    expect(updated.code, updated.stderr).toBe(0);
    const stored = (await t.call(store, 'GET', `/price-lists/${id}`)).body.data;
    expect(stored).toMatchObject({ name: 'Wholesale', status: 'draft', adjustment: null, startsAt: null, customerTags: [] });
    expect(updated.json).toEqual(stored);
    await cli(['price-lists', 'create', '--name', 'Euro', '--currency', 'EUR']);
    const all = await cli(['price-lists', 'list']);
    expect(all.json.map((list: { name: string }) => list.name)).toEqual(['Wholesale', 'Euro']);
    expect((await cli(['price-lists', 'list', '--currency', 'EUR'])).json.map((list: { name: string }) => list.name)).toEqual(['Euro']);
    expect((await cli(['price-lists', 'delete', '--id', id])).json).toEqual({ id });
    expect((await t.call(store, 'GET', `/price-lists/${id}`)).status).toBe(404);
    const gone = await cli(['price-lists', 'get', '--id', id]);
    expect(gone).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(/^storefront: HTTP 404: [^\n]+\n$/) });
  });

  it('sets prices from JSON, NDJSON and stdin, copies a list, resolves them and removes them', async () => {
    const tee = await product({ title: 'Tee', price: 20, options: [{ name: 'Size', values: ['S', 'M'] }] });
    const mug = await product({ title: 'Mug', price: 8 });
    const [small, medium] = tee.variants;
    const euro = (await cli(['price-lists', 'create', '--name', 'EU shop', '--currency', 'EUR'])).json;
    const items = [
      { productId: tee.id, variantId: small.id, price: 18.5, comparePrice: 22 },
      { productId: mug.id, price: 7 },
    ];
    const set = await cli(['price-lists', 'set-prices', '--id', euro.id, file('prices.json', JSON.stringify(items))]);
    expect(set.json).toEqual({ priceListId: euro.id, set: 2 });
    const ndjson = `${JSON.stringify({ productId: tee.id, variantId: medium.id, price: 19 })}\n\n`;
    expect((await cli(['price-lists', 'set-prices', '--id', euro.id, file('more.ndjson', ndjson)])).json).toMatchObject({ set: 1 });
    const listed = await cli(['price-lists', 'prices', '--id', euro.id]);
    expect(listed.json).toEqual(await storedPrices(euro.id));
    expect(listed.json).toHaveLength(3);
    expect(listed.json.find((price: { variantId: string }) => price.variantId === small.id)).toMatchObject({
      price: 18.5,
      comparePrice: 22,
    });
    // what `prices` prints goes back in as it is: the list copied into another, through stdin
    const copy = (await cli(['price-lists', 'create', '--name', 'EU copy', '--currency', 'EUR'])).json;
    expect((await cli(['price-lists', 'set-prices', '--id', copy.id, '-'], listed.stdout)).json).toEqual({ priceListId: copy.id, set: 3 });
    const amounts = (prices: { productId: string; variantId: string | null; price: number; comparePrice: number | null }[]) =>
      prices
        .map(({ productId, variantId, price, comparePrice }) => ({ productId, variantId, price, comparePrice }))
        .sort((a, b) => `${a.productId}${a.variantId}`.localeCompare(`${b.productId}${b.variantId}`));
    expect(amounts(await storedPrices(copy.id))).toEqual(amounts(listed.json));

    const resolved = await cli(['prices', '--product-ids', `${tee.id},${mug.id}`, '--currency', 'EUR']);
    expect(resolved.code, resolved.stderr).toBe(0);
    const direct = await t.call(store, 'GET', `/prices?productIds=${tee.id},${mug.id}&currency=EUR`);
    expect(resolved.json).toEqual(direct.body.data);
    expect(resolved.json.map((price: { price: number; basis: string }) => [price.price, price.basis])).toEqual([
      [18.5, 'fixed'],
      [19, 'fixed'],
      [7, 'fixed'],
    ]);

    const removed = await cli([
      'price-lists',
      'delete-prices',
      '--id',
      euro.id,
      file('gone.ndjson', JSON.stringify({ productId: mug.id })),
    ]);
    expect(removed.json).toEqual({ priceListId: euro.id, deleted: 1 });
    expect((await storedPrices(euro.id)).map((price: { productId: string }) => price.productId)).not.toContain(mug.id);
  });

  it('sends more than 1,000 items in requests of 1,000, naming a refused item by its place in the file', async () => {
    const sizes = Array.from({ length: 40 }, (_, i) => `S${i}`);
    const colors = Array.from({ length: 26 }, (_, i) => String.fromCharCode(65 + i));
    const big = await product({
      title: 'Many',
      price: 1,
      options: [
        { name: 'Size', values: sizes },
        { name: 'Color', values: colors },
      ],
    });
    expect(big.variants).toHaveLength(1040);
    const list = (await cli(['price-lists', 'create', '--name', 'Bulk', '--currency', 'EUR'])).json;
    const items = big.variants.map((variant: { id: string }, i: number) => ({
      productId: big.id,
      variantId: variant.id,
      price: i === 1030 ? 1.005 : 2,
    }));
    const run = await cli(['price-lists', 'set-prices', '--id', list.id, file('bulk.json', JSON.stringify({ items }))]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^storefront: HTTP 400: [^\n]*items\[1030\]\.price[^\n]*\(items 0 to 999 were applied\)\n$/);
    // the first request's 1,000 stand (and `prices` follows the pages: 250 a page)
    const stored = (await cli(['price-lists', 'prices', '--id', list.id])).json;
    expect(stored).toHaveLength(1000);
    expect(new Set(stored.map((price: { variantId: string }) => price.variantId))).toEqual(
      new Set(items.slice(0, 1000).map((item: { variantId: string }) => item.variantId)),
    );
  });

  it('fails in one line: a 400 naming the field, a bad file, a bad command line (exit 2)', async () => {
    const refused = await cli(['price-lists', 'create', '--name', 'X', '--currency', 'EURO']);
    expect(refused).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(/^storefront: HTTP 400: [^\n]*currency[^\n]*\n$/) });
    const list = (await cli(['price-lists', 'create', '--name', 'Files', '--currency', 'EUR'])).json;
    const notJson = await cli(['price-lists', 'set-prices', '--id', list.id, file('bad.ndjson', '{"productId": "a"}\n{oops}\n')]);
    expect(notJson).toMatchObject({ code: 1, stderr: expect.stringMatching(/^storefront: \S+bad\.ndjson line 2 is not JSON/) });
    const empty = await cli(['price-lists', 'set-prices', '--id', list.id, '-'], '\n');
    expect(empty).toMatchObject({ code: 1, stderr: 'storefront: stdin holds no items\n' });
    // an unknown field is the API's to refuse, never dropped on the way
    const typo = await cli(
      ['price-lists', 'set-prices', '--id', list.id, '-'],
      JSON.stringify([{ productId: 'a'.repeat(24), price: 1, comparPrice: 2 }]),
    );
    expect(typo).toMatchObject({ code: 1, stderr: expect.stringMatching(/^storefront: HTTP 400: [^\n]*comparPrice/) });
    const usage: [string[], RegExp][] = [
      [['price-lists', 'create', '--name', 'X', '--currency', 'EUR', '--adjustment', '10%'], /--adjustment must be/],
      [['price-lists', 'update', '--id', list.id], /give at least one change/],
      [['price-lists', 'set-prices', '--id', list.id], /give one JSON or NDJSON file/],
      [['price-lists', 'get'], /missing --id/],
      [['prices', '--product-ids', ' , '], /--product-ids must name at least one product/],
    ];
    for (const [args, message] of usage) {
      const run = await cli(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(message);
      expect(run.stdout).toBe('');
    }
    expect((await t.call(store, 'GET', '/price-lists?search=X')).body.data).toEqual([]);
  });
});
