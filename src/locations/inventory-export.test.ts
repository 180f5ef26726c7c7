import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { csvFixture, importCsv, productByHandle, shopifyExport, variantOf } from '../../test/support/csv.fixtures.js';
import { postImport, runStoreJobs } from '../../test/support/jobs.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

/** A store with the catalog of Shopify's current product CSV (trail-runner's 8 variants, gift-wrap). */
async function catalogStore(): Promise<TestStore> {
  const store = await t.newStore();
  const { errors } = await importCsv(t, store, 'products', csvFixture('shopify-current.csv'));
  expect(errors).toEqual([]);
  return store;
}

/** Every level of the store by item (SKU, else handle and options) and location name, with its value. */
async function levelsOf(store: TestStore): Promise<string[]> {
  const text = await ndjsonExport(store);
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const { sku, productHandle, options, location, available } = JSON.parse(line);
      return `${location} / ${sku ?? `${productHandle} ${JSON.stringify(options ?? {})}`} → ${available}`;
    })
    .sort();
}

async function ndjsonExport(store: TestStore): Promise<string> {
  const reply = await t.app.inject({
    method: 'GET',
    url: '/api/v1/exports/inventory',
    headers: { authorization: `Bearer ${store.token}` },
  });
  expect(reply.statusCode).toBe(200);
  expect(reply.headers['content-type']).toMatch(/^application\/x-ndjson/);
  return reply.body;
}

/** Trail Runner Blue / 41 / Regular loses its SKU: its levels are found by handle and option values. */
async function dropBlueSku(store: TestStore): Promise<void> {
  const trail = await productByHandle(t, store, 'trail-runner');
  const blue = variantOf(trail, { Color: 'Blue', Size: '41', Width: 'Regular' }) as unknown as { id: string };
  const patched = await t.call(store, 'PATCH', `/products/${trail.id}/variants/${blue.id}`, { sku: null });
  expect(patched.body.data.sku).toBeNull();
}

/** A store whose levels are at three locations (one named like a formula), with a level at 0, one below 0 and one without a SKU. */
async function stockedStore(): Promise<TestStore> {
  const store = await catalogStore();
  const { errors } = await importCsv(t, store, 'inventory', csvFixture('shopify-inventory.csv'));
  expect(errors).toHaveLength(1);
  await dropBlueSku(store);
  const posted = await postImport(t, store, 'inventory', [
    { productHandle: 'trail-runner', options: { Color: 'Blue', Size: '41', Width: 'Regular' }, location: '-1 Basement', available: 6 },
    { sku: 'TR-BLU-40-W', location: '-1 Basement', available: 0 },
  ]);
  expect(posted.status).toBe(202);
  await runStoreJobs(t, store);
  return store;
}

describe('GET /exports/inventory', () => {
  it('writes every level as an import line; a store with the same catalog imports it into the same levels', async () => {
    const source = await stockedStore();
    const levels = await levelsOf(source);
    expect(levels).toEqual(
      expect.arrayContaining([
        '-1 Basement / TR-BLU-40-W → 0',
        '-1 Basement / trail-runner {"Color":"Blue","Size":"41","Width":"Regular"} → 6',
        'Warehouse (Concord Park) / WRAP-1 → -2',
      ]),
    );
    const target = await catalogStore();
    await dropBlueSku(target);
    const lines = (await ndjsonExport(source)).split('\n').filter(Boolean);
    const posted = await t.call(target, 'POST', '/imports?resource=inventory', lines.join('\n'), {
      'content-type': 'application/x-ndjson',
    });
    await runStoreJobs(t, target);
    const job = (await t.call(target, 'GET', `/jobs/${posted.body.data.id}`)).body.data;
    expect(job).toMatchObject({ status: 'succeeded', failed: 0, warnings: 0 });
    expect(await levelsOf(target)).toEqual(levels);
  });

  it("format=shopify writes Shopify's inventory CSV, which imports into the same levels (a formula-like name quoted and back)", async () => {
    const source = await stockedStore();
    const csv = await shopifyExport(t, source, 'inventory');
    const [header, ...rows] = csv.trimEnd().split('\n');
    expect(header).toBe(
      'Handle,Title,Option1 Name,Option1 Value,Option2 Name,Option2 Value,Option3 Name,Option3 Value,SKU,HS Code,COO,Location,Bin name,' +
        'Incoming (not editable),Unavailable (not editable),Committed (not editable),Available (not editable),On hand (current),On hand (new)',
    );
    expect(rows).toContain('gift-wrap,Gift Wrap,Title,Default Title,,,,,WRAP-1,,,Warehouse (Concord Park),,0,0,0,-2,-2,');
    expect(rows).toContain("trail-runner,Trail Runner,Color,Blue,Size,40,Width,Wide,TR-BLU-40-W,,,'-1 Basement,,0,0,0,0,0,");
    const target = await catalogStore();
    await dropBlueSku(target);
    const { job, errors, warnings } = await importCsv(t, target, 'inventory', csv);
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    expect(job.createdLocations.sort()).toEqual(['-1 Basement', 'Shop location', 'Warehouse (Concord Park)']);
    expect(await levelsOf(target)).toEqual(await levelsOf(source));
    // the totals products show follow the levels
    expect((await productByHandle(t, target, 'gift-wrap')).totalStock).toBe((await productByHandle(t, source, 'gift-wrap')).totalStock);
  });
});
