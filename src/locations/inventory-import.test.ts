import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { csvFixture, csvRow, importCsv, productByHandle, variantOf } from '../../test/support/csv.fixtures.js';
import { settled } from '../../test/support/feed.fixtures.js';
import { postImport, runStoreJobs } from '../../test/support/jobs.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

/** A store with the catalog of Shopify's current product CSV (trail-runner's 8 variants, gift-wrap), stock at Default. */
async function catalogStore(): Promise<TestStore> {
  const store = await t.newStore();
  const { errors } = await importCsv(t, store, 'products', csvFixture('shopify-current.csv'));
  expect(errors).toEqual([]);
  return store;
}

const locationsOf = async (store: TestStore) =>
  ((await t.call(store, 'GET', '/locations?sort=name&limit=100')).body.data as { id: string; name: string; active: boolean }[]).map(
    ({ id, name, active }) => ({ id, name, active }),
  );

/** Every level of the store as `location / sku-or-handle → available`, sorted. */
async function levelsOf(store: TestStore): Promise<string[]> {
  const names = new Map((await locationsOf(store)).map((location) => [location.id, location.name]));
  const products = (await t.call(store, 'GET', '/products?limit=100')).body.data as {
    id: string;
    handle: string;
    sku: string | null;
    variants: { id: string; sku: string | null }[];
  }[];
  const items = new Map<string, string>();
  for (const product of products) {
    items.set(product.id, product.sku ?? product.handle);
    for (const variant of product.variants) items.set(variant.id, variant.sku ?? variant.id);
  }
  const levels = (await t.call(store, 'GET', '/inventory-levels?limit=100')).body.data as {
    productId: string;
    variantId: string | null;
    locationId: string;
    available: number;
  }[];
  return levels
    .map((level) => `${names.get(level.locationId)} / ${items.get(level.variantId ?? level.productId)} → ${level.available}`)
    .sort();
}

describe("Shopify's inventory CSV (POST /imports?resource=inventory, text/csv)", () => {
  it('sets each level by SKU, else handle and options; creates the locations it names; reports the unknown item', async () => {
    const store = await catalogStore();
    const { job, errors, warnings } = await importCsv(t, store, 'inventory', csvFixture('shopify-inventory.csv'));
    expect(job).toMatchObject({
      status: 'succeeded',
      resource: 'inventory',
      total: 10,
      created: 7,
      updated: 2,
      failed: 1,
      warnings: 1,
      createdLocations: ['Shop location', 'Warehouse (Concord Park)'],
    });
    expect(errors).toEqual([
      expect.objectContaining({ line: 10, column: 'SKU', code: 'VALIDATION_ERROR', message: expect.stringContaining('"NOPE-1"') }),
    ]);
    // On hand (new) 10 less 1 unavailable: what Shopify itself would show as available
    expect(warnings).toEqual([
      expect.objectContaining({ line: 5, column: 'On hand (new)', code: 'VALUE_CHANGED', message: expect.stringContaining('9 available') }),
    ]);
    expect((await locationsOf(store)).map((location) => location.name)).toEqual(['Default', 'Shop location', 'Warehouse (Concord Park)']);
    const levels = await levelsOf(store);
    expect(levels).toEqual(
      expect.arrayContaining([
        'Default / TR-BLK-40-W → 8',
        'Shop location / TR-BLK-40-W → 7',
        'Shop location / TR-BLA-40-R → 1',
        'Shop location / TR-BLA-41-W → 5',
        'Shop location / TR-BLA-41-R → 9',
        'Shop location / WRAP-1 → 100',
        'Warehouse (Concord Park) / TR-BLU-40-W → 4',
        'Warehouse (Concord Park) / WRAP-1 → -2',
      ]),
    );
    // not stocked: no level was made
    expect(levels.filter((level) => level.startsWith('Warehouse (Concord Park) / TR-BLU-40-R'))).toEqual([]);
    const trail = await productByHandle(t, store, 'trail-runner');
    expect(variantOf(trail, { Color: 'Black', Size: '40', Width: 'Wide' })?.stock).toBe(15);
    expect((await productByHandle(t, store, 'gift-wrap')).totalStock).toBe(198);
  });

  it('a dry run reports the same counters, rows and locations, and writes nothing', async () => {
    const store = await catalogStore();
    const before = await levelsOf(store);
    const dry = await importCsv(t, store, 'inventory', csvFixture('shopify-inventory.csv'), '&dryRun=true');
    expect(await levelsOf(store)).toEqual(before);
    expect((await locationsOf(store)).map((location) => location.name)).toEqual(['Default']);
    const real = await importCsv(t, store, 'inventory', csvFixture('shopify-inventory.csv'));
    const counters = ({ total, created, updated, failed, warnings, createdLocations }: Record<string, unknown>) => ({
      total,
      created,
      updated,
      failed,
      warnings,
      createdLocations,
    });
    expect(counters(dry.job)).toEqual(counters(real.job));
    expect(dry.errors).toEqual(real.errors);
    expect(dry.warnings).toEqual(real.warnings);
  });

  it('reads the older header generation (Available, On hand) and rows that leave option names blank', async () => {
    const store = await catalogStore();
    const file = [
      csvRow([
        'Handle',
        'Title',
        'Option1 Name',
        'Option1 Value',
        'Option2 Name',
        'Option2 Value',
        'Option3 Name',
        'Option3 Value',
        'SKU',
        'HS Code',
        'COO',
        'Location',
        'Incoming',
        'Unavailable',
        'Committed',
        'Available',
        'On hand',
      ]),
      csvRow([
        'trail-runner',
        'Trail Runner',
        'Color',
        'Blue',
        'Size',
        '41',
        'Width',
        'Wide',
        '',
        '',
        '',
        'default',
        '0',
        '0',
        '0',
        '3',
        '3',
      ]),
      csvRow(['trail-runner', 'Trail Runner', '', 'Blue', '', '41', '', 'Regular', '', '', '', 'DEFAULT', '0', '0', '0', '11', '11']),
    ].join('\n');
    const { job, errors } = await importCsv(t, store, 'inventory', file);
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ created: 0, updated: 2, createdLocations: [] });
    const trail = await productByHandle(t, store, 'trail-runner');
    expect(variantOf(trail, { Color: 'Blue', Size: '41', Width: 'Wide' })?.stock).toBe(3);
    expect(variantOf(trail, { Color: 'Blue', Size: '41', Width: 'Regular' })?.stock).toBe(11);
  });
});

describe('inventory NDJSON lines', () => {
  it('a dry run over several batches counts a level and a location made in an earlier batch as a real run does', async () => {
    const store = await catalogStore();
    const lines = [
      ...Array.from({ length: 100 }, (_, i) => ({ sku: 'WRAP-1', location: 'Shop', available: i })),
      { sku: 'TR-BLK-40-W', location: 'shop', available: 3 },
      { sku: 'WRAP-1', location: 'SHOP', available: 5 },
    ];
    const run = async (dryRun: boolean) => {
      const posted = await t.call(
        store,
        'POST',
        `/imports?resource=inventory${dryRun ? '&dryRun=true' : ''}`,
        lines.map((line) => JSON.stringify(line)).join('\n'),
        {
          'content-type': 'application/x-ndjson',
        },
      );
      await runStoreJobs(t, store);
      const { total, created, updated, failed, createdLocations } = (await t.call(store, 'GET', `/jobs/${posted.body.data.id}`)).body.data;
      return { total, created, updated, failed, createdLocations };
    };
    const dry = await run(true);
    expect(await levelsOf(store)).not.toEqual(expect.arrayContaining([expect.stringMatching(/^Shop /)]));
    expect(dry).toEqual(await run(false));
    expect(dry).toEqual({ total: 102, created: 2, updated: 100, failed: 0, createdLocations: ['Shop'] });
  });

  it('sets levels by sku or productHandle + options; an inactive location and an unknown variant are errors naming the field', async () => {
    const store = await catalogStore();
    const closed = (await t.call(store, 'POST', '/locations', { name: 'Closed', active: false })).body.data;
    expect(closed.active).toBe(false);
    const posted = await postImport(t, store, 'inventory', [
      { sku: 'WRAP-1', location: 'Pop-up', available: 4 },
      { productHandle: 'trail-runner', options: { color: 'Blue', Size: '41', Width: 'Wide' }, location: 'pop-up', available: 2 },
      { sku: 'WRAP-1', location: 'Closed', available: 1 },
      { productHandle: 'trail-runner', options: { Color: 'Green' }, location: 'Pop-up', available: 1 },
      { location: 'Pop-up', available: 1 },
    ]);
    expect(posted.status).toBe(202);
    await runStoreJobs(t, store);
    const job = (await t.call(store, 'GET', `/jobs/${posted.body.data.id}`)).body.data;
    expect(job).toMatchObject({ status: 'succeeded', created: 2, failed: 3, createdLocations: ['Pop-up'] });
    const errors = (await t.call(store, 'GET', `/jobs/${posted.body.data.id}/errors`)).body.data;
    expect(errors.map((row: { line: number; details: { field: string }[] }) => [row.line, row.details[0].field])).toEqual([
      [3, 'location'],
      [4, 'options'],
      [5, 'sku'],
    ]);
    expect(await levelsOf(store)).toEqual(expect.arrayContaining(['Pop-up / WRAP-1 → 4', 'Pop-up / TR-BLU-41-W → 2']));
    await settled(t);
    const events = (await t.call(store, 'GET', '/events?types=inventory.updated&limit=100')).body.data;
    // the catalog's import made the Default levels (their events too): the file's are those at Pop-up
    const popUp = (await locationsOf(store)).find((location) => location.name === 'Pop-up')?.id;
    const atPopUp = events.filter((event: { data: { locationId: string } }) => event.data.locationId === popUp);
    expect(atPopUp.map((event: { data: { available: number } }) => event.data.available)).toEqual([4, 2]);
  });
});
