import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext, TestStore } from '../helpers.js';
import { runStoreJobs } from './jobs.fixtures.js';

export const CSV = { 'content-type': 'text/csv' };

/** A CSV fixture of test/fixtures/csv/ as text. */
export const csvFixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', 'csv', name), 'utf8');

/** POST /imports with a CSV body; `query` adds to `resource=` (e.g. "&format=shopify&dryRun=true"). */
export function postCsv(t: TestContext, store: TestStore, resource: string, body: string | Buffer, query = '') {
  return t.call(store, 'POST', `/imports?resource=${resource}${query}`, body, CSV);
}

/** A row of GET /jobs/{id}/errors. */
export interface JobRow {
  line: number;
  column: string | null;
  level: string;
  code: string;
  message: string;
  details: { field: string; in: string; message: string }[];
}

/**
 * Imports a CSV and runs its job to the end: the finished job, its error rows (level "error") and its
 * warning rows (values changed or made up, level "warning").
 */
export async function importCsv(t: TestContext, store: TestStore, resource: string, body: string | Buffer, query = '') {
  const posted = await postCsv(t, store, resource, body, query);
  if (posted.status !== 202) throw new Error(`POST /imports: ${posted.status} ${JSON.stringify(posted.body)}`);
  await runStoreJobs(t, store);
  const job = (await t.call(store, 'GET', `/jobs/${posted.body.data.id}`)).body.data;
  const rows: JobRow[] = [];
  for (let cursor = ''; ; ) {
    const page = (await t.call(store, 'GET', `/jobs/${posted.body.data.id}/errors?limit=100${cursor}`)).body;
    if (!page.data) throw new Error(JSON.stringify(page));
    rows.push(...page.data);
    if (!page.pagination.nextCursor) break;
    cursor = `&cursor=${encodeURIComponent(page.pagination.nextCursor)}`;
  }
  const errors = rows.filter((row) => row.level === 'error').map(({ level, ...row }) => row);
  const warnings = rows.filter((row) => row.level === 'warning').map(({ level, ...row }) => row);
  return { job, errors, warnings };
}

/** GET /exports/{resource}?format=shopify as the store's admin: the CSV text (a 200 is expected). */
export async function shopifyExport(t: TestContext, store: TestStore, resource: string): Promise<string> {
  const reply = await t.app.inject({
    method: 'GET',
    url: `/api/v1/exports/${resource}?format=shopify`,
    headers: { authorization: `Bearer ${store.token}` },
  });
  if (reply.statusCode !== 200) throw new Error(`GET /exports/${resource}?format=shopify: ${reply.statusCode} ${reply.body}`);
  return reply.body;
}

/** fast-check's settings of a property over the database: `runs` a run, FUZZ_RUNS overrides, FUZZ_SEED replays a failure. */
export const propertyRuns = (runs: number) => ({
  numRuns: Number(process.env.FUZZ_RUNS ?? runs),
  seed: process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED),
});

/** The store's product with a handle, as GET /products/{id} returns it. */
export async function productByHandle(t: TestContext, store: TestStore, handle: string) {
  const listed = (await t.call(store, 'GET', `/products?handle=${encodeURIComponent(handle)}`)).body.data;
  if (listed.length !== 1) throw new Error(`no product ${handle}`);
  return (await t.call(store, 'GET', `/products/${listed[0].id}`)).body.data;
}

/** A CSV row from cells (quoted when needed, RFC 4180). */
export const csvRow = (cells: readonly (string | number)[], delimiter = ',') =>
  cells
    .map(String)
    .map((cell) => (/[",;\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell))
    .join(delimiter);

type Variant = { attributes: Record<string, string>; [key: string]: unknown };

/** The product's variant of exactly these attributes (as the API returns them), or undefined. */
export const variantOf = (product: { variants: Variant[] }, attributes: Record<string, string>) =>
  product.variants.find((variant) => JSON.stringify(variant.attributes) === JSON.stringify(attributes));
