import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { runCli } from '../../test/support/cli.fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'storefront-cli-http-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = runCli;

/** A port nothing listens on (fetch refuses well-known ports such as 1 before connecting). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));

describe('storefront export (against the real server)', () => {
  let t: TestContext;
  let store: TestStore;
  let url: string;
  let key: string;
  beforeAll(async () => {
    t = await setupTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    store = await t.newStore();
    for (const title of ['Tee', 'Mug', 'Cap'])
      await t.call(store, 'POST', '/products', { title, options: [{ name: 'Size', values: ['S', 'M'] }] });
    key = (await t.call(store, 'POST', '/api-keys', { name: 'cli', scopes: ['products:read'] })).body.data.key;
  });
  afterAll(async () => t?.close());

  it('writes the export to --out, progress as JSON lines on stderr, a summary on stdout', async () => {
    const out = join(dir, 'products.ndjson');
    const run = await cli(['export', '--resource', 'products', '--out', out], { STOREFRONT_URL: url, STOREFRONT_API_KEY: key });
    expect(run.code).toBe(0);
    const direct = await t.app.inject({ method: 'GET', url: '/api/v1/exports/products', headers: { authorization: `Bearer ${key}` } });
    expect(readFileSync(out, 'utf8')).toBe(direct.body);
    expect(JSON.parse(run.stdout)).toEqual({ resource: 'products', exported: 3, out });
    const progress = jsonLines(run.stderr);
    expect(progress.at(-1)).toMatchObject({ exported: 3, total: 3, rate: expect.any(Number) });
  });

  it('writes to stdout without --out (the summary goes to stderr)', async () => {
    const run = await cli(['export', '--resource', 'products', '--updated-since', '2000-01-01T00:00:00Z'], {
      STOREFRONT_URL: `${url}/api/v1`,
      STOREFRONT_API_KEY: key,
    });
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').filter(Boolean)).toHaveLength(3);
    expect(jsonLines(run.stderr).at(-1)).toEqual({ resource: 'products', exported: 3, out: null });
  });

  it('--format shopify writes the CSV layout, counting its rows (a row per variant here)', async () => {
    const out = join(dir, 'shop.csv');
    const run = await cli(['export', '--resource', 'products', '--format', 'shopify', '--out', out], {
      STOREFRONT_URL: url,
      STOREFRONT_API_KEY: key,
    });
    expect(run.code).toBe(0);
    const direct = await t.app.inject({
      method: 'GET',
      url: '/api/v1/exports/products?format=shopify',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(direct.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(readFileSync(out, 'utf8')).toBe(direct.body);
    expect(JSON.parse(run.stdout)).toEqual({ resource: 'products', format: 'shopify', exported: 6, out });
    expect(jsonLines(run.stderr).at(-1)).toMatchObject({ rows: 6, total: null });
    const usage = await cli(['export', '--resource', 'collections', '--format', 'shopify'], {
      STOREFRONT_URL: url,
      STOREFRONT_API_KEY: key,
    });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe('storefront: --format shopify exports products, customers, orders, inventory only\n');
  });

  it('fails in one line, never a stack: a missing scope, a bad key, no server, a bad resource', async () => {
    const env = { STOREFRONT_URL: url, STOREFRONT_API_KEY: key };
    const forbidden = await cli(['export', '--resource', 'orders'], env);
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toBe('storefront: HTTP 403: This credential lacks the scope orders:read\n');
    const unauthorized = await cli(['export', '--resource', 'products'], { ...env, STOREFRONT_API_KEY: `sfk_${'x'.repeat(40)}` });
    expect(unauthorized.code).toBe(1);
    expect(unauthorized.stderr).toMatch(/^storefront: HTTP 401: [^\n]+\n$/);
    const closed = await closedPort();
    const refused = await cli(['export', '--resource', 'products'], { ...env, STOREFRONT_URL: `http://127.0.0.1:${closed}` });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`storefront: cannot reach http://127.0.0.1:${closed}: connection refused\n`);
    const usage = await cli(['export', '--resource', 'variants'], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^storefront: --resource must be one of/);
  });
});

/** A stand-in for POST /imports and GET /jobs (CONTRACT §9.5) that plays a job's life from a script. */
function fakeImportServer(states: object[], errors: object[]) {
  const seen = { uploads: [] as { url: string; contentType?: string; body: string }[], rateLimited: 0, polls: 0 };
  const job = {
    id: 'a'.repeat(24),
    type: 'import',
    resource: 'products',
    createdAt: '2026-11-23T10:00:00.000Z',
    startedAt: null,
    finishedAt: null,
  };
  const send = (res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
  const server = createServer(async (req: IncomingMessage, res) => {
    const path = req.url ?? '';
    if (req.method === 'POST' && path.startsWith('/api/v1/imports?resource=')) {
      let body = '';
      for await (const chunk of req) body += chunk;
      if (seen.rateLimited++ === 0)
        return send(
          res,
          429,
          { success: false, error: { code: 'RATE_LIMITED', message: 'Too many requests', details: [] } },
          { 'retry-after': '1' },
        );
      seen.uploads.push({ url: path, contentType: req.headers['content-type'], body });
      return send(res, 202, { success: true, data: { ...job, ...states[0] } }, { location: `/api/v1/jobs/${job.id}` });
    }
    if (path === `/api/v1/jobs/${job.id}`)
      return send(res, 200, { success: true, data: { ...job, ...states[Math.min(++seen.polls, states.length - 1)] } });
    if (path.startsWith(`/api/v1/jobs/${job.id}/errors`)) return send(res, 200, { success: true, data: errors, pagination: {} });
    send(res, 404, { success: false, error: { code: 'NOT_FOUND', message: 'no route', details: [] } });
  });
  return { server, seen, job };
}

const counters = (status: string, processed: number, created: number, updated: number, failed: number) => ({
  status,
  total: 3,
  processed,
  created,
  updated,
  failed,
});

describe('storefront import (against a stand-in server)', () => {
  const file = join(dir, 'import.ndjson');
  writeFileSync(file, '{"title":"Tee"}\n{"title":""}\n{"title":"Mug"}\n');

  async function withServer(
    states: object[],
    errors: object[],
    run: (env: Record<string, string>, seen: ReturnType<typeof fakeImportServer>['seen']) => Promise<void>,
  ) {
    const fake = fakeImportServer(states, errors);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (fake.server.address() as AddressInfo).port;
      await run({ STOREFRONT_URL: `http://127.0.0.1:${port}`, STOREFRONT_API_KEY: 'sfk_test' }, fake.seen);
    } finally {
      fake.server.close();
    }
  }

  it('uploads the file as NDJSON (after a 429), follows the job, prints the failed lines and exits 1', async () => {
    const states = [counters('queued', 0, 0, 0, 0), counters('running', 1, 1, 0, 0), counters('succeeded', 3, 2, 0, 1)];
    const errors = [
      {
        line: 2,
        code: 'VALIDATION_ERROR',
        message: 'Request validation failed',
        details: [{ field: 'title', in: 'body', message: 'must not be empty' }],
      },
    ];
    await withServer(states, errors, async (env, seen) => {
      const run = await cli(['import', '--resource', 'products', file], env);
      expect(run.code).toBe(1);
      expect(seen.rateLimited).toBe(2);
      expect(seen.uploads).toEqual([
        { url: '/api/v1/imports?resource=products', contentType: 'application/x-ndjson', body: readFileSync(file, 'utf8') },
      ]);
      const summary = JSON.parse(run.stdout);
      expect(summary).toMatchObject({
        job: 'a'.repeat(24),
        status: 'succeeded',
        total: 3,
        processed: 3,
        created: 2,
        updated: 0,
        failed: 1,
      });
      const progress = jsonLines(run.stderr);
      expect(progress.length).toBeGreaterThan(0);
      expect(Object.keys(progress[0])).toEqual(['processed', 'total', 'created', 'updated', 'failed', 'rate']);
      expect(progress.at(-1)).toMatchObject({ processed: 3, total: 3, created: 2, failed: 1 });
      expect(run.stderr).toContain('1 line(s) failed; the first 1:\n  line 2: VALIDATION_ERROR title must not be empty\n');
      expect(run.stderr).toContain(`all of them: ${env.STOREFRONT_URL}/api/v1/jobs/${'a'.repeat(24)}/errors\n`);
    });
  });

  it('exits 0 when every line succeeded; 1 for a job that failed', async () => {
    await withServer([counters('queued', 0, 0, 0, 0), counters('succeeded', 3, 1, 2, 0)], [], async (env) => {
      const run = await cli(['import', '--resource', 'products', file], env);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ status: 'succeeded', created: 1, updated: 2, failed: 0 });
    });
    await withServer([counters('running', 1, 1, 0, 0), counters('failed', 1, 1, 0, 0)], [], async (env) => {
      expect((await cli(['import', '--resource', 'products', file], env)).code).toBe(1);
    });
  });

  it('sends a .csv file as text/csv, a layout named by --format, and dryRun with --dry-run', async () => {
    const csv = join(dir, 'shop.CSV');
    writeFileSync(csv, 'Handle,Title\ntee,Tee\n');
    const named = join(dir, 'shop-export.txt');
    writeFileSync(named, 'Handle,Title\nmug,Mug\n');
    const states = [counters('queued', 0, 0, 0, 0), counters('succeeded', 3, 3, 0, 0)];
    await withServer(states, [], async (env, seen) => {
      expect((await cli(['import', '--resource', 'products', csv], env)).code).toBe(0);
      expect((await cli(['import', '--resource', 'products', '--format', 'shopify', '--dry-run', named], env)).code).toBe(0);
      expect((await cli(['import', '--resource', 'products', '--format', 'csv', named], env)).code).toBe(0);
      expect((await cli(['import', '--resource', 'products', '--format', 'ndjson', csv], env)).code).toBe(0);
      expect(seen.uploads).toEqual([
        { url: '/api/v1/imports?resource=products', contentType: 'text/csv', body: 'Handle,Title\ntee,Tee\n' },
        { url: '/api/v1/imports?resource=products&format=shopify&dryRun=true', contentType: 'text/csv', body: 'Handle,Title\nmug,Mug\n' },
        { url: '/api/v1/imports?resource=products', contentType: 'text/csv', body: 'Handle,Title\nmug,Mug\n' },
        { url: '/api/v1/imports?resource=products', contentType: 'application/x-ndjson', body: 'Handle,Title\ntee,Tee\n' },
      ]);
    });
  });

  it('says a dry run is one in its summary', async () => {
    await withServer([counters('queued', 0, 0, 0, 0), counters('succeeded', 3, 3, 0, 0)], [], async (env) => {
      const run = await cli(['import', '--resource', 'products', '--dry-run', file], env);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ status: 'succeeded', dryRun: true, created: 3 });
    });
  });

  it('an inventory import names the locations the job created (a dry run: would create) in its summary', async () => {
    const csv = join(dir, 'inventory_export.csv');
    writeFileSync(csv, 'Handle,SKU,Location,Available\ntee,TEE-S,Warehouse,4\n');
    const done = { ...counters('succeeded', 3, 3, 0, 0), createdLocations: ['Warehouse'] };
    await withServer([counters('queued', 0, 0, 0, 0), done], [], async (env, seen) => {
      const run = await cli(['import', '--resource', 'inventory', '--dry-run', csv], env);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ dryRun: true, created: 3, createdLocations: ['Warehouse'] });
      expect(seen.uploads).toEqual([
        {
          url: '/api/v1/imports?resource=inventory&dryRun=true',
          contentType: 'text/csv',
          body: 'Handle,SKU,Location,Available\ntee,TEE-S,Warehouse,4\n',
        },
      ]);
    });
  });

  it('names the column of a failed CSV record', async () => {
    const errors = [
      {
        line: 3,
        column: 'Variant Price',
        code: 'VALIDATION_ERROR',
        message: 'Request validation failed',
        details: [{ field: 'price', in: 'body', message: 'must be a number' }],
      },
    ];
    await withServer([counters('queued', 0, 0, 0, 0), counters('succeeded', 3, 2, 0, 1)], errors, async (env) => {
      const run = await cli(['import', '--resource', 'products', file], env);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('  line 3 (Variant Price): VALIDATION_ERROR price must be a number\n');
    });
  });

  it('refuses a missing file or resource with a usage error (2)', async () => {
    const env = { STOREFRONT_URL: 'http://127.0.0.1:1', STOREFRONT_API_KEY: 'sfk_test' };
    expect((await cli(['import', '--resource', 'products', join(dir, 'none.ndjson')], env)).code).toBe(2);
    const noResource = await cli(['import', file], env);
    expect(noResource.code).toBe(2);
    expect(noResource.stderr).toMatch(
      /^storefront: missing --resource; usage: storefront import --resource R \[--format F\] \[--dry-run\] FILE/,
    );
    const badResource = await cli(['import', '--resource', 'widgets', file], env);
    expect(badResource.code).toBe(2);
    expect(badResource.stderr).toMatch(/^storefront: --resource must be one of products, collections, customers, orders/);
    const badFormat = await cli(['import', '--resource', 'products', '--format', 'xlsx', file], env);
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toMatch(/^storefront: --format must be one of ndjson, csv, shopify, woocommerce/);
  });
});
