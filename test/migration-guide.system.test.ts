import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from './support/server-process.js';

/**
 * docs/migration-guide.md works top to bottom as written on a server started as `npm start` starts it
 * (the default embedded engine, which holds its data dir): every `sh` block of the guide runs, in order, in
 * one bash in a checkout-like directory (the server's data dir at ./data, the guide's file names holding
 * real exports), with only the server's port put in place of 3000 and `npx storefront` meaning this
 * checkout's CLI. Nothing may need the server stopped.
 */

const ROOT = new URL('..', import.meta.url).pathname;
const GUIDE = readFileSync(join(ROOT, 'docs', 'migration-guide.md'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'storefront-guide-'));
let server: ServerProcess;

beforeAll(async () => {
  server = await startServerProcess({ STOREFRONT_DATA_DIR: join(dir, 'data'), STOREFRONT_DEMO: 'true' }, 150_000);
}, 180_000);

afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  rmSync(dir, { recursive: true, force: true });
});

/** The guide's fenced blocks of one language, in order. */
const blocks = (language: string) => [...GUIDE.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]);

function bash(script: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd: dir, env: { ...process.env, STOREFRONT_URL: '', STOREFRONT_API_KEY: '' } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('docs/migration-guide.md on a running embedded server', () => {
  it('runs every command of the guide as written, without stopping the server', async () => {
    // the files the guide names, as the platforms export them
    copyFileSync(join(ROOT, 'examples', 'shopify-products.csv'), join(dir, 'products_export.csv'));
    copyFileSync(join(ROOT, 'test', 'fixtures', 'csv', 'shopify-customers.csv'), join(dir, 'customers_export.csv'));
    copyFileSync(join(ROOT, 'test', 'fixtures', 'csv', 'shopify-orders.csv'), join(dir, 'orders_export.csv'));
    const products = blocks('json')
      .flatMap((block) => block.split('\n'))
      .filter((line) => line.startsWith('{"handle"'));
    expect(products.length).toBeGreaterThan(0);
    writeFileSync(join(dir, 'products.ndjson'), `${products.join('\n')}\n`);

    const commands = blocks('sh');
    expect(commands.length).toBeGreaterThanOrEqual(4);
    const script = [
      'set -euo pipefail',
      `npx() { if [ "$1" = storefront ]; then shift; node ${JSON.stringify(join(ROOT, 'bin', 'storefront.mjs'))} "$@"; else command npx "$@"; fi; }`,
      ...commands.map((block) => block.replaceAll('http://127.0.0.1:3000', server.base)),
      // what the guide's steps leave behind
      'echo "imported=$(wc -l < imported.ndjson)"',
      'head -1 shop.csv',
    ].join('\n');
    const run = await bash(script);
    expect(run.output).not.toMatch(/data dir is in use|stop the server/i);
    expect(run.code, run.output.slice(-3000)).toBe(0);
    // the example's products, then the NDJSON product; the Shopify export's header row
    expect(Number(/imported=(\d+)/.exec(run.output)?.[1])).toBeGreaterThan(1);
    expect(run.output).toMatch(/^Title,URL handle,/m);
    expect(server.child.exitCode).toBeNull();
  }, 600_000);
});
