import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { csvFixture, csvRow, importCsv, postCsv, productByHandle, shopifyExport } from '../../test/support/csv.fixtures.js';
import { type FeedEvent, feedOf, settled } from '../../test/support/feed.fixtures.js';

/**
 * Shopify's market price columns (CONTRACT §14) through Shopify's 2023 product_template.csv, the file as Shopify
 * ships it (`Price / United States`, `Compare At Price / International`, …) with its empty market cells filled:
 * each market's prices land in the price list named after it, and the Shopify export writes them back.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(async () => t?.close());
const feed = feedOf(() => t);

/** The market cells given to the template's rows, by SKU: [US price, US compare-at, International price, International compare-at]. */
const MARKET_CELLS: Record<string, string[]> = {
  SRT_COT_111: ['25.00', '', '23.50', '29.90'],
  SRT_COT_122: ['25.00', '', '23.50', ''],
  SRT_COT_133: ['26.00', '30.00', '24.00', ''],
  PNT_DEN_285: ['95.00', '110.00', '89.00', ''],
  PNT_DEN_305: ['95.00', '', '', ''],
  HAT_GRY_275: ['17.99', '', '16.50', '21.00'],
};
const MARKET_HEADERS = [
  'Price / United States',
  'Compare At Price / United States',
  'Price / International',
  'Compare At Price / International',
];

function template(cells: Record<string, string[]> = MARKET_CELLS): string {
  const [header, ...rows] = parse(csvFixture('shopify-legacy-template.csv')) as string[][];
  const at = MARKET_HEADERS.map((name) => header.indexOf(name));
  const sku = header.indexOf('Variant SKU');
  for (const row of rows) {
    const given = cells[row[sku]];
    if (!given) continue;
    at.forEach((index, i) => {
      row[index] = given[i];
    });
  }
  return [header, ...rows].map((row) => `${csvRow(row)}\n`).join('');
}

const listsOf = async (store: TestStore) =>
  ((await t.call(store, 'GET', '/price-lists?sort=createdAt')).body.data as { id: string; name: string; currency: string }[]).map(
    ({ id, name, currency }) => ({ id, name, currency }),
  );

describe("Shopify's market price columns", () => {
  it('import into the lists named after the markets, and the export writes them back cell for cell', async () => {
    const store = await t.newStore();
    const { job, errors } = await importCsv(t, store, 'products', template(), '&marketCurrencies=International:EUR');
    expect(errors).toEqual([]);
    expect(job.created).toBe(3);
    const lists = await listsOf(store);
    expect(lists.map(({ name, currency }) => ({ name, currency })).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'International', currency: 'EUR' },
      { name: 'United States', currency: 'USD' },
    ]);
    const shirt = await productByHandle(t, store, 'example-shirt');
    const first = shirt.variants.find((variant: { sku: string }) => variant.sku === 'SRT_COT_111');
    // no market cell is left in customFields
    expect(Object.keys(first.customFields).filter((key) => key.includes(' / '))).toEqual([]);
    const international = lists.find((list) => list.name === 'International') as { id: string };
    const prices = (await t.call(store, 'GET', `/price-lists/${international.id}/prices?limit=100`)).body.data;
    expect(prices.find((price: { variantId: string }) => price.variantId === first.id)).toMatchObject({ price: 23.5, comparePrice: 29.9 });
    const hat = await productByHandle(t, store, 'example-hat');
    expect(prices.find((price: { productId: string }) => price.productId === hat.id)).toMatchObject({
      variantId: null,
      price: 16.5,
      comparePrice: 21,
    });
    expect(prices).toHaveLength(5);

    const exported = parse(await shopifyExport(t, store, 'products'), { columns: true }) as Record<string, string>[];
    for (const [sku, cells] of Object.entries(MARKET_CELLS)) {
      const row = exported.find((record) => record.SKU === sku) as Record<string, string>;
      const written = [
        'Price / United States',
        'Compare-at price / United States',
        'Price / International',
        'Compare-at price / International',
      ].map((column) => row[column]);
      expect(written, sku).toEqual(cells);
    }
  });

  it('appends priceList.created and priceList.updated as the API does', async () => {
    const store = await t.newStore();
    await importCsv(t, store, 'products', template(), '&marketCurrencies=International:EUR');
    // on PostgreSQL the feed shows a write once every transaction begun before it has ended (docs/events.md)
    await settled(t);
    const events = (await t.call(store, 'GET', '/events?limit=100')).body.data as { type: string }[];
    const types = events.map((event) => event.type).filter((type) => type.startsWith('priceList.'));
    expect(types.filter((type) => type === 'priceList.created')).toHaveLength(2);
    expect(types.filter((type) => type === 'priceList.updated').length).toBeGreaterThanOrEqual(2);
  });

  it("refuses a line whose amount has more decimals than its market's currency, naming the cell", async () => {
    const store = await t.newStore();
    // yen amounts for the others (JPY has no decimals), one with a decimal for the hat
    const yen = Object.entries(MARKET_CELLS).map(([sku, [usd, usdCompare, eur, eurCompare]]) => [
      sku,
      [usd, usdCompare, eur && '2500', eurCompare && '3000'],
    ]);
    const cells = { ...Object.fromEntries(yen), HAT_GRY_275: ['17.99', '', '1650.5', ''] };
    const { job, errors } = await importCsv(t, store, 'products', template(cells), '&marketCurrencies=International:JPY');
    expect(job.created).toBe(2);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line: 12, column: 'Price / International', code: 'VALIDATION_ERROR' });
    expect(errors[0].message + JSON.stringify(errors[0].details)).toContain('JPY');
    expect((await t.call(store, 'GET', '/products?handle=example-hat')).body.data).toEqual([]);
  });

  it('a dry run reports what the real run does and creates no list', async () => {
    const store = await t.newStore();
    const cells = { ...MARKET_CELLS, HAT_GRY_275: ['17.999', '', '', ''] };
    const dry = await importCsv(t, store, 'products', template(cells), '&marketCurrencies=International:EUR&dryRun=true');
    expect(await listsOf(store)).toEqual([]);
    const real = await importCsv(t, store, 'products', template(cells), '&marketCurrencies=International:EUR');
    const counters = ({ created, updated, failed }: Record<string, number>) => ({ created, updated, failed });
    expect(counters(dry.job)).toEqual(counters(real.job));
    expect(dry.errors.map(({ line, column, code }) => ({ line, column, code }))).toEqual(
      real.errors.map(({ line, column, code }) => ({ line, column, code })),
    );
    expect(real.errors).toMatchObject([{ column: 'Price / United States' }]);
  });

  it('warns of a compare-at price below the market price (VALUE_CHANGED at its cell), which it leaves out, dry run as real run', async () => {
    // SRT_COT_122 is record 3 of the file, HAT_GRY_275 record 12 (the header is record 1)
    const cells = { ...MARKET_CELLS, SRT_COT_122: ['25.00', '', '23.50', '20.00'], HAT_GRY_275: ['17.99', '9.99', '16.50', '21.00'] };
    const run = async (store: TestStore, dryRun: boolean) => {
      const query = `&marketCurrencies=International:EUR${dryRun ? '&dryRun=true' : ''}`;
      const { job, errors, warnings } = await importCsv(t, store, 'products', template(cells), query);
      const { created, updated, failed } = job;
      return { counters: { created, updated, failed, warnings: job.warnings }, errors, warnings };
    };
    const store = await t.newStore();
    const dry = await run(store, true);
    expect(await listsOf(store)).toEqual([]);
    const real = await run(store, false);
    expect(real.errors).toEqual([]);
    const market = real.warnings.filter((row: { column: string | null }) => row.column?.includes(' / '));
    expect(market).toEqual([
      {
        line: 3,
        column: 'Compare At Price / International',
        code: 'VALUE_CHANGED',
        message: 'Compare At Price / International 20.00 is below Price / International 23.50: the compare-at price was not imported',
        details: [{ field: 'Compare At Price / International', in: 'body', message: expect.stringContaining('20.00') }],
      },
      expect.objectContaining({ line: 12, column: 'Compare At Price / United States', code: 'VALUE_CHANGED' }),
    ]);
    expect(real.counters.warnings).toBe(real.warnings.length);
    expect(dry).toEqual(real);
    // the price is imported, its compare-at price is not; the other market's compare-at price is
    const lists = await listsOf(store);
    const pricesOf = async (name: string) =>
      (await t.call(store, 'GET', `/price-lists/${lists.find((list) => list.name === name)?.id}/prices?limit=100`)).body.data;
    const shirt = await productByHandle(t, store, 'example-shirt');
    const second = shirt.variants.find((variant: { sku: string }) => variant.sku === 'SRT_COT_122');
    expect((await pricesOf('International')).find((price: { variantId: string }) => price.variantId === second.id)).toMatchObject({
      price: 23.5,
      comparePrice: null,
    });
    const hat = await productByHandle(t, store, 'example-hat');
    const hatPrices = (name: string) =>
      pricesOf(name).then((prices) => prices.find((price: { productId: string }) => price.productId === hat.id));
    expect(await hatPrices('United States')).toMatchObject({ price: 17.99, comparePrice: null });
    expect(await hatPrices('International')).toMatchObject({ price: 16.5, comparePrice: 21 });
  });

  // three imports and reads of the feed, each waiting for every older transaction of the cluster (a loaded
  // machine's benchmarks hold it back for seconds): more than the default minute
  it('importing the same file again appends no event and leaves the lists as they were; a changed cell, one priceList.updated', async () => {
    const store = await t.newStore();
    const query = '&marketCurrencies=International:EUR';
    await importCsv(t, store, 'products', template(), query);
    const lists = async () => (await t.call(store, 'GET', '/price-lists?sort=createdAt')).body.data;
    const before = await lists();
    // the cursor after the first import's events (its one batch: once its lists' creations show, all of it does)
    let { events: first, cursor } = await feed.readOn(store);
    for (let reads = 0; reads < 20 && first.filter((event) => event.type === 'priceList.created').length < 2; reads++) {
      ({ events: first, cursor } = await feed.readOn(store));
    }
    await importCsv(t, store, 'products', template(), query);
    expect(await lists()).toEqual(before);
    const changed = { ...MARKET_CELLS, HAT_GRY_275: ['17.99', '', '16.00', '21.00'] };
    await importCsv(t, store, 'products', template(changed), query);
    // read until the changed import's event shows (the feed waits for older transactions of the cluster): the
    // same file's import ran before it, so any event of that one would show by then too
    let events: FeedEvent[] = [];
    for (let reads = 0; reads < 20 && !events.some((event) => event.type === 'priceList.updated'); reads++) {
      events = (await feed.readOn(store, '', cursor)).events;
    }
    const international = before.find((list: { name: string }) => list.name === 'International');
    expect(events.map((event) => [event.type, event.data.id])).toEqual([['priceList.updated', international.id]]);
  }, 240_000);

  it.each([
    'International:XYZ',
    'International',
    'International:EUR,international:GBP',
    'International:eur',
  ])('marketCurrencies=%s is a 400 naming it, before the body is read', async (value) => {
    const store = await t.newStore();
    const reply = await postCsv(t, store, 'products', template(), `&marketCurrencies=${encodeURIComponent(value)}`);
    expect(reply.status).toBe(400);
    expect(reply.body.error.details[0]).toMatchObject({ field: 'marketCurrencies', in: 'query' });
  });
});
