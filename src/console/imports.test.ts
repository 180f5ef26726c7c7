import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, setupTestApp, type TestContext, type TestStore, testDatabaseUrl } from '../../test/helpers.js';
import { type ConsoleClient, signIn } from '../../test/support/console.fixtures.js';
import { csvFixture } from '../../test/support/csv.fixtures.js';
import { runStoreJobs } from '../../test/support/jobs.fixtures.js';

// The Imports screen through app.inject: a multipart upload goes on to POST /imports (dry run, then import),
// the job page shows counters and every error, "Download failed rows" gives the CSV, fixed it imports.
let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp({ databaseUrl: engine === 'postgres' ? testDatabaseUrl() : null });
});
afterAll(() => t.close());

const HOSTILE = '<img src=x onerror=alert(1)>';
const BOUNDARY = '----storefront-console-test';

function multipart(resource: string, filename: string, content: string, type = 'text/csv'): string {
  return [
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="resource"\r\n\r\n${resource}\r\n`,
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n${content}\r\n`,
    `--${BOUNDARY}--\r\n`,
  ].join('');
}

async function upload(client: ConsoleClient, mode: string, content: string, csrf = client.csrf) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/console/imports?mode=${mode}&_csrf=${encodeURIComponent(csrf)}`,
    headers: { cookie: client.cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: multipart('products', 'products_export.csv', content),
  });
  return { status: res.statusCode, location: res.headers.location as string, body: res.body };
}

const rowsOf = (text: string): string[][] => parse(text, { relax_column_count: true });
const csvText = (rows: string[][]) => rows.map((row) => row.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(',')).join('\n');

async function uploadAndRun(client: ConsoleClient, store: TestStore, mode: string, content: string) {
  const sent = await upload(client, mode, content);
  expect(sent.status, sent.body).toBe(303);
  await runStoreJobs(t, store);
  return client.get(sent.location);
}

describe('the Imports screen', () => {
  it('dry run, import, every error, Download failed rows, the fixed file imported', async () => {
    const store = await t.newStore();
    const client = await signIn(t.app, store);
    const screen = await client.get('/console/imports');
    for (const name of ['>Resource</label>', '>File</label>', '>Dry run</button>', '>Import</button>']) expect(screen.body).toContain(name);

    const original = rowsOf(csvFixture('shopify-current.csv'));
    const header = original[0];
    const broken = original.map((row) => [...row]);
    broken[2][header.indexOf('Price')] = HOSTILE;
    const dry = await uploadAndRun(client, store, 'dry-run', csvText(broken));
    expect(dry.body).toContain('data-status="succeeded"');
    expect(dry.body).toMatch(/Would create<\/dt><dd>1<\/dd>/);
    // the job's encoding (docs/csv-import.md, "Encodings")
    expect(dry.body).toMatch(/Encoding<\/dt><dd>utf-8<\/dd>/);
    expect((await t.call(store, 'GET', '/products')).body.data).toEqual([]);

    const real = await uploadAndRun(client, store, 'import', csvText(broken));
    expect(real.body).toMatch(/Created<\/dt><dd>1<\/dd>/);
    expect(real.body).toMatch(/Refused<\/dt><dd>1<\/dd>/);
    expect(real.body).toContain('<td>3</td><td>Price</td>');
    expect(real.body).not.toContain(HOSTILE);
    const jobId = /\/console\/imports\/([0-9a-f]{24})\/failed-rows/.exec(real.body)?.[1];
    expect(real.body).toContain('>Download failed rows</a>');

    const download = await client.get(`/console/imports/${jobId}/failed-rows`);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(download.headers['content-disposition']).toContain('failed-rows.csv');
    const failed = rowsOf(download.body);
    expect(failed[0]).toEqual([...header, 'Error']);
    expect(failed).toHaveLength(10);
    failed[2][header.indexOf('Price')] = '120.00';
    const fixed = await uploadAndRun(client, store, 'import', csvText(failed));
    expect(fixed.body).toMatch(/Created<\/dt><dd>1<\/dd>/);
    expect(fixed.body).toMatch(/Refused<\/dt><dd>0<\/dd>/);
    expect(fixed.body).not.toContain('Download failed rows');
  });

  it('shows the level of each row: a value changed or made up is a warning, counted', async () => {
    const store = await t.newStore();
    const client = await signIn(t.app, store);
    const body = 'Handle,Title,Option1 Name,Option1 Value,Variant SKU,Variant Price\ncanasto-360º,Canasto,Size,S,,5\n';
    const page = await uploadAndRun(client, store, 'import', body);
    expect(page.body).toMatch(/Changed or made up<\/dt><dd>2<\/dd>/);
    expect(page.body).toContain('<td>2</td><td>Handle</td><td>warning</td><td>VALUE_CHANGED</td>');
    expect(page.body).toContain('<td>2</td><td>Variant SKU</td><td>warning</td><td>VALUE_GENERATED</td>');
    // a warning is no failed line: nothing to download
    expect(page.body).not.toContain('>Download failed rows</a>');
  });

  it('refuses an upload without the CSRF token (no job), and another store reaches none of its jobs', async () => {
    const a = await t.newStore();
    const b = await t.newStore();
    const clientA = await signIn(t.app, a);
    const clientB = await signIn(t.app, b);
    expect((await upload(clientA, 'import', csvFixture('shopify-current.csv'), 'forged')).status).toBe(403);
    expect((await t.call(a, 'GET', '/jobs')).body.data).toEqual([]);
    const sent = await upload(clientA, 'import', csvFixture('shopify-current.csv'));
    expect((await clientB.get(sent.location)).status).toBe(404);
    expect((await clientB.get(`${sent.location}/failed-rows`)).status).toBe(404);
    expect((await clientB.post(`${sent.location}/cancel`, { _csrf: clientB.csrf })).status).toBe(404);
    expect((await clientA.post(`${sent.location}/cancel`, { _csrf: clientA.csrf })).status).toBe(303);
    expect((await t.call(a, 'GET', '/jobs')).body.data[0].status).toBe('cancelled');
  });
});

describe('the Imports screen with NDJSON', () => {
  it('imports an NDJSON file of customers and gives its failed lines back unchanged', async () => {
    const store = await t.newStore();
    const client = await signIn(t.app, store);
    const bad = `{"userName": "${HOSTILE}", "email": "not-an-email"}`;
    const res = await t.app.inject({
      method: 'POST',
      url: `/console/imports?mode=import&_csrf=${encodeURIComponent(client.csrf)}`,
      headers: { cookie: client.cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: multipart('customers', 'customers.ndjson', `{"userName":"ann","firstName":"Ann"}\n${bad}\n`, 'application/octet-stream'),
    });
    expect(res.statusCode, res.body).toBe(303);
    await runStoreJobs(t, store);
    const page = await client.get(res.headers.location as string);
    expect(page.body).toMatch(/Created<\/dt><dd>1<\/dd>/);
    expect(page.body).toMatch(/Refused<\/dt><dd>1<\/dd>/);
    const download = await client.get(`${res.headers.location}/failed-rows`);
    expect(download.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(download.body).toBe(`${bad}\n`);

    // the list of jobs: "Search" and GET /jobs' filters, kept in the form; a filter that matches nothing lists none
    const job = (res.headers.location as string).split('/').pop() as string;
    const listed = await client.get('/console/imports?resource=customers&status=succeeded&search=cust');
    expect(listed.status).toBe(200);
    expect(listed.body).toContain(`href="/console/imports/${job}"`);
    expect(listed.body).toContain('<label for="filter-search">Search</label>');
    expect(listed.body).toMatch(/<option value="customers" selected>/);
    const none = await client.get('/console/imports?resource=products');
    expect(none.body).not.toContain(`href="/console/imports/${job}"`);
    expect((await client.get('/console/imports?status=sideways')).status).toBe(400);
  });
});

describe('the Exports screen', () => {
  it('exports a resource as NDJSON or Shopify CSV, and refuses what the layout does not hold', async () => {
    const store = await t.newStore();
    const client = await signIn(t.app, store);
    await t.call(store, 'POST', '/products', { title: HOSTILE, handle: 'hostile' });
    const screen = await client.get('/console/exports');
    for (const name of ['>Resource</label>', '>Format</label>', '>Export</button>']) expect(screen.body).toContain(name);
    const ndjson = await client.get('/console/exports/file?resource=products&format=ndjson');
    expect(ndjson.status).toBe(200);
    expect(ndjson.headers['content-disposition']).toBe('attachment; filename="products.ndjson"');
    expect(JSON.parse(ndjson.body.trim()).title).toBe(HOSTILE);
    const csv = await client.get('/console/exports/file?resource=products&format=shopify');
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(rowsOf(csv.body)[1]).toContain(HOSTILE);
    expect((await client.get('/console/exports/file?resource=collections&format=shopify')).status).toBe(400);
  });
});
