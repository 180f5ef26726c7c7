import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { csvRow, importCsv, productByHandle } from '../../test/support/csv.fixtures.js';
import { NDJSON, runStoreJobs } from '../../test/support/jobs.fixtures.js';

/**
 * Keys of customFields and of every other map a body or file carries (CONTRACT §10.2; issue 35 item 9):
 * `__proto__`, `constructor` and `prototype` are refused at any depth with a 400 that names the field and
 * says why (before: "The body is not valid JSON" for `__proto__`, which is valid JSON), an import line
 * holding one is that line's error (NDJSON and CSV, the cell named), and keys are stored NFC.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
}, 180_000);
afterAll(() => t.close());

const JSON_BODY = { 'content-type': 'application/json' };
const PRODUCT = '"title":"Lamp","price":10';
const send = (store: TestStore, method: string, url: string, text: string) => t.call(store, method, url, text, JSON_BODY);

function expectForbidden(reply: Parameters<typeof expectError>[0], key: string, field: string) {
  const error = expectError(reply, 400, 'VALIDATION_ERROR');
  expect(error.message).toBe(`\`${key}\` is not allowed as a key`);
  expect(error.details).toContainEqual({ field, in: 'body', message: `\`${key}\` is not allowed as a key` });
}

/** Imports NDJSON lines given as text and runs the job: the job and its error rows. */
async function importLines(store: TestStore, resource: string, lines: string[]) {
  const posted = await t.call(store, 'POST', `/imports?resource=${resource}`, lines.join('\n'), NDJSON);
  expect(posted.status, JSON.stringify(posted.body)).toBe(202);
  await runStoreJobs(t, store);
  const job = (await t.call(store, 'GET', `/jobs/${posted.body.data.id}`)).body.data;
  const errors = (await t.call(store, 'GET', `/jobs/${posted.body.data.id}/errors`)).body.data;
  return { job, errors };
}

describe('forbidden keys in a JSON body', () => {
  it.each([
    '__proto__',
    'constructor',
    'prototype',
  ])('POST and PATCH of a product refuse customFields {"%s": 1}, naming it', async (key) => {
    const store = await t.newStore();
    expectForbidden(await send(store, 'POST', '/products', `{${PRODUCT},"customFields":{"${key}":1}}`), key, `customFields.${key}`);
    expect((await t.call(store, 'GET', '/products')).body.data).toEqual([]);
    const created = await send(store, 'POST', '/products', `{${PRODUCT},"customFields":{"a":1}}`);
    const { id } = created.body.data;
    expectForbidden(await send(store, 'PATCH', `/products/${id}`, `{"customFields":{"${key}":"x","b":2}}`), key, `customFields.${key}`);
    // the removal of such a key is refused too: the key is refused, whatever its value
    expectForbidden(await send(store, 'PATCH', `/products/${id}`, `{"customFields":{"${key}":null}}`), key, `customFields.${key}`);
    expect((await t.call(store, 'GET', `/products/${id}`)).body.data.customFields).toEqual({ a: 1 });
  });

  it('refuses one at any depth, in variants, options, and in a place no schema names', async () => {
    const store = await t.newStore();
    const options = '"options":[{"name":"Size","values":["S","M"]}]';
    const cases: [string, string, string][] = [
      [
        `{${PRODUCT},${options},"variants":[{"attributes":{"Size":"M"},"customFields":{"constructor":1}}]}`,
        'constructor',
        'variants[0].customFields.constructor',
      ],
      [`{${PRODUCT},${options},"variants":[{"attributes":{"__proto__":"M"}}]}`, '__proto__', 'variants[0].attributes.__proto__'],
      [`{${PRODUCT},"options":[{"name":"Size","values":["S"],"__proto__":{"polluted":true}}]}`, '__proto__', 'options[0].__proto__'],
      [`{${PRODUCT},"customFields":{"a":1},"__proto__":{"x":{"prototype":{}}}}`, '__proto__', '__proto__'],
    ];
    for (const [body, key, field] of cases) expectForbidden(await send(store, 'POST', '/products', body), key, field);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    '__proto__',
    'constructor',
    'prototype',
  ])('refuses %s as an option name: it would become a key of every variant’s attributes', async (key) => {
    const store = await t.newStore();
    const options = `"options":[{"name":"Size","values":["S"]},{"name":"${key}","values":["x","y"]}]`;
    const expectOptionRefused = (reply: Parameters<typeof expectError>[0]) =>
      expect(expectError(reply, 400, 'VALIDATION_ERROR').details).toContainEqual({
        field: 'options[1].name',
        in: 'body',
        message: `\`${key}\` is not allowed as a key`,
      });
    expectOptionRefused(await send(store, 'POST', '/products', `{${PRODUCT},${options}}`));
    const created = await send(store, 'POST', '/products', `{${PRODUCT},"options":[{"name":"Size","values":["S"]}]}`);
    expect(created.status).toBe(201);
    expectOptionRefused(await send(store, 'PATCH', `/products/${created.body.data.id}`, `{${options}}`));
    expect((await t.call(store, 'GET', '/products')).body.data).toHaveLength(1);
  });

  it.each([
    ['/collections', '"title":"Summer"'],
    ['/customers', '"userName":"ada","password":"long-secret-1"'],
    ['/orders', '"cartItems":[{"productId":"p","title":"Lamp","price":10,"quantity":1}],"subTotal":10,"totalAmount":10'],
  ])('POST %s refuses one in customFields', async (path, fields) => {
    const store = await t.newStore();
    expectForbidden(await send(store, 'POST', path, `{${fields},"customFields":{"prototype":"x"}}`), 'prototype', 'customFields.prototype');
    expectForbidden(await send(store, 'POST', path, `{${fields},"customFields":{"__proto__":"x"}}`), '__proto__', 'customFields.__proto__');
  });
});

describe('NFC keys', () => {
  const NFD = 'Cafe\u0301';
  const NFC = 'Café';

  it('stores an NFD key as NFC; the NFC spelling names the same key on PATCH, in bodies and in import lines', async () => {
    const store = await t.newStore();
    expect(NFD).not.toBe(NFC);
    const created = await t.call(store, 'POST', '/products', { title: 'Lamp', price: 10, customFields: { [NFD]: 1 } });
    expect(Object.keys(created.body.data.customFields)).toEqual([NFC]);
    const { id, handle } = created.body.data;
    const patched = await t.call(store, 'PATCH', `/products/${id}`, { customFields: { [NFC]: 2 } });
    expect(patched.body.data.customFields).toEqual({ [NFC]: 2 });
    const { job } = await importLines(store, 'products', [
      JSON.stringify({ handle, title: 'Lamp', price: 10, customFields: { [NFD]: 3 } }),
    ]);
    expect(job).toMatchObject({ updated: 1, failed: 0 });
    expect((await t.call(store, 'GET', `/products/${id}`)).body.data.customFields).toEqual({ [NFC]: 3 });
    const removed = await t.call(store, 'PATCH', `/products/${id}`, { customFields: { [NFD]: null } });
    expect(removed.body.data.customFields).toEqual({});
  });

  it('a stored NFD key (written before keys were normalised) is replaced by a PATCH of its NFC spelling', async () => {
    const store = await t.newStore();
    const { id } = (await t.call(store, 'POST', '/customers', { userName: 'ada', password: 'long-secret-1' })).body.data;
    await sql`UPDATE customers SET custom_fields = ${JSON.stringify({ [NFD]: 'old', b: 1 })}::jsonb WHERE store_id = ${store.id} AND id = ${id}`.execute(
      t.database.db,
    );
    const patched = await t.call(store, 'PATCH', `/customers/${id}`, { customFields: { [NFC]: 'new' } });
    expect(patched.body.data.customFields).toEqual({ [NFC]: 'new', b: 1 });
  });
});

describe('forbidden keys in files', () => {
  it('an NDJSON line holding one is that line’s error (the message says why); the other lines import', async () => {
    const store = await t.newStore();
    const { job, errors } = await importLines(store, 'products', [
      '{"handle":"a","title":"A","price":1}',
      '{"handle":"b","title":"B","price":1,"customFields":{"__proto__":"x"}}',
      '{"handle":"c","title":"C","price":1,"options":[{"name":"Size","values":["S"]}],"variants":[{"attributes":{"Size":"S"},"customFields":{"constructor":1}}]}',
      '{"handle":"d","title":"D","price":1}',
    ]);
    expect(job).toMatchObject({ status: 'succeeded', created: 2, failed: 2 });
    expect(
      errors.map((row: { line: number; code: string; message: string; details: { field: string }[] }) => [
        row.line,
        row.code,
        row.message,
        row.details[0].field,
      ]),
    ).toEqual([
      [2, 'VALIDATION_ERROR', '`__proto__` is not allowed as a key', 'customFields.__proto__'],
      [3, 'VALIDATION_ERROR', '`constructor` is not allowed as a key', 'variants[0].customFields.constructor'],
    ]);
    expect((await t.call(store, 'GET', '/products?limit=10')).body.data.map((p: { handle: string }) => p.handle).sort()).toEqual([
      'a',
      'd',
    ]);
  });

  it('a Shopify CSV column whose header is one: the products with a cell there are errors naming the column', async () => {
    const store = await t.newStore();
    const file = [
      csvRow(['Handle', 'Title', 'Variant Price', '__proto__', 'constructor', 'Option1 Name', 'Option1 Value']),
      csvRow(['plain', 'Plain', '5', '', '', 'Title', 'Default Title']),
      csvRow(['proto', 'Proto', '5', 'polluted', '', 'Title', 'Default Title']),
      csvRow(['ctor', 'Ctor', '5', '', 'x', 'Title', 'Default Title']),
      csvRow(['opt', 'Opt', '5', '', '', 'prototype', 'S']),
    ].join('\n');
    const { job, errors } = await importCsv(t, store, 'products', file);
    expect(job).toMatchObject({ status: 'succeeded', created: 1, failed: 3 });
    expect(errors.map((row) => [row.line, row.column, row.code, row.message])).toEqual([
      [3, '__proto__', 'VALIDATION_ERROR', '`__proto__` is not allowed as a key'],
      [4, 'constructor', 'VALIDATION_ERROR', '`constructor` is not allowed as a key'],
      [5, 'Option1 Value', 'VALIDATION_ERROR', '`prototype` is not allowed as a key'],
    ]);
    expect((await productByHandle(t, store, 'plain')).customFields).not.toHaveProperty('constructor');
  });
  it('the same in a customer CSV and a WooCommerce product CSV', async () => {
    const store = await t.newStore();
    const customers = [
      csvRow(['Email', 'First Name', 'Last Name', 'prototype']),
      csvRow(['ada@example.com', 'Ada', 'A', '']),
      csvRow(['bo@example.com', 'Bo', 'B', 'x']),
    ];
    const imported = await importCsv(t, store, 'customers', customers.join('\n'));
    expect(imported.job).toMatchObject({ created: 1, failed: 1 });
    expect(imported.errors).toMatchObject([{ line: 3, column: 'prototype', message: '`prototype` is not allowed as a key' }]);
    const woo = [
      csvRow(['ID', 'Type', 'SKU', 'Name', 'Regular price', '__proto__']),
      csvRow(['1', 'simple', 'A-1', 'Plain', '5', '']),
      csvRow(['2', 'simple', 'B-1', 'Proto', '5', 'polluted']),
    ];
    const products = await importCsv(t, store, 'products', woo.join('\n'));
    expect(products.job).toMatchObject({ created: 1, failed: 1 });
    expect(products.errors).toMatchObject([{ line: 3, column: '__proto__', message: '`__proto__` is not allowed as a key' }]);
  });
});

describe('a record stored with one before the fix (issue 35 item 9: import, GET, PATCH back)', () => {
  it('GET serves it; a PATCH of the GET body is a clear 400; a PATCH that does not name it keeps it', async () => {
    const store = await t.newStore();
    const { id } = (await t.call(store, 'POST', '/products', { title: 'Lamp', price: 10 })).body.data;
    await sql`UPDATE products SET custom_fields = '{"__proto__": "x", "a": 1}'::jsonb WHERE store_id = ${store.id} AND id = ${id}`.execute(
      t.database.db,
    );
    const got = await t.call(store, 'GET', `/products/${id}`);
    expect(got.status).toBe(200);
    expect(JSON.stringify(got.body.data.customFields)).toBe('{"__proto__":"x","a":1}');
    const echoed = await send(store, 'PATCH', `/products/${id}`, JSON.stringify({ customFields: got.body.data.customFields }));
    expectForbidden(echoed, '__proto__', 'customFields.__proto__');
    const other = await t.call(store, 'PATCH', `/products/${id}`, { title: 'Desk lamp', customFields: { b: 2 } });
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    expect(JSON.stringify(other.body.data.customFields)).toBe('{"__proto__":"x","a":1,"b":2}');
  });

  it('the issue’s import of such a line now ends at import time, with the line’s error', async () => {
    const store = await t.newStore();
    const { job, errors } = await importLines(store, 'products', ['{"handle":"p","title":"P","price":1,"customFields":{"__proto__":"x"}}']);
    expect(job).toMatchObject({ created: 0, failed: 1 });
    expect(errors[0]).toMatchObject({ line: 1, code: 'VALIDATION_ERROR', message: '`__proto__` is not allowed as a key' });
    expect((await t.call(store, 'GET', '/products')).body.data).toEqual([]);
  });
});
