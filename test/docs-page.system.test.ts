import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, ElementHandle, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createOwnDatabase, type OwnDatabase } from './support/own-database.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';
import { seedStore } from './support/storefront-client.js';

/**
 * `GET /docs` in a real browser: Debian's chromium driven by puppeteer-core (never a downloaded browser),
 * against `storefront serve` on the embedded engine. Every request the page makes outside the server is
 * refused and recorded: the page must work offline.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const chromiumMissing = !existsSync(CHROMIUM);
const skipReason = `skipped: no chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
if (chromiumMissing) console.warn(`docs-page.system.test.ts: ${skipReason}`);

interface Operation {
  method: string;
  path: string;
}

const postgresUrl = process.env.TEST_DATABASE_URL;
const dataDir = mkdtempSync(join(tmpdir(), 'storefront-docs-page-'));
let own: OwnDatabase | undefined;
let server: ServerProcess;
let browser: Browser;
let apiKey: string;
let recordName: string;
const outside: string[] = [];

async function api(path: string, init: { method?: string; body?: unknown; token: string }) {
  const response = await fetch(`${server.base}/api/v1${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${init.token}`, 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return (await response.json()) as { data: Record<string, string> };
}

async function openDocs(): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 900 });
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:' || url.origin === server.base) return void request.continue();
    outside.push(request.url());
    void request.abort();
  });
  await page.goto(`${server.base}/docs/`, { waitUntil: 'networkidle0', timeout: 120_000 });
  await page.waitForSelector('input[placeholder="Token"]', { timeout: 60_000 });
  return page;
}

/** The first closed group of the sidebar (a resource's operations), as shown on screen; null once all are open. */
async function closedGroup(page: Page): Promise<ElementHandle<Element> | null> {
  for (const button of await page.$$('aside li[data-sidebar-id^="api-1/tag/"] button[aria-expanded="false"]'))
    if (/Open Group\s*$/.test(await button.evaluate((node) => node.textContent ?? '')) && (await button.isVisible())) return button;
  return null;
}

/** Opens every group of the sidebar, one click at a time, and returns the operations it lists (`api-1/tag/<tag>/<METHOD><path>`). */
async function sidebarOperations(page: Page): Promise<Operation[]> {
  for (let clicks = 0; clicks < 100; clicks++) {
    const button = await closedGroup(page);
    if (!button) break;
    await button.click();
    await page.waitForFunction((node) => node.getAttribute('aria-expanded') === 'true', {}, button);
  }
  const ids = await page.$$eval('aside [data-sidebar-id]', (items) => items.map((item) => item.getAttribute('data-sidebar-id') ?? ''));
  return ids.flatMap((id) => {
    const match = /^api-1\/tag\/[^/]+\/(GET|POST|PUT|PATCH|DELETE)(\/.*)$/.exec(id);
    return match ? [{ method: match[1], path: match[2] }] : [];
  });
}

describe.skipIf(chromiumMissing)(`the docs page in chromium${chromiumMissing ? ` (${skipReason})` : ''}`, () => {
  /** PostgreSQL when the run has one (a server starts in seconds there), else the embedded engine's demo store. */
  async function startServer(): Promise<string> {
    if (postgresUrl) {
      own = await createOwnDatabase(postgresUrl, 'storefront_docs', inject('postgresTemplate'));
      const jwtSecret = randomBytes(32).toString('hex');
      const { token } = await seedStore(own.url, jwtSecret);
      server = await startServerProcess({ DATABASE_URL: own.url, STOREFRONT_JWT_SECRET: jwtSecret }, 240_000);
      return token;
    }
    server = await startServerProcess({ STOREFRONT_DATA_DIR: dataDir, STOREFRONT_DEMO: 'true' }, 240_000);
    const credentials = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8'));
    const login = await fetch(`${server.base}/api/v1/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
    });
    return ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
  }

  beforeAll(async () => {
    const token = await startServer();
    apiKey = (await api('/api-keys', { method: 'POST', token, body: { name: 'docs page', scopes: ['attributes:read'] } })).data.key;
    recordName = `Docs page ${Date.now()}`;
    await api('/attribute-sets', { method: 'POST', token, body: { name: recordName } });
    const { default: puppeteer } = await import('puppeteer-core');
    browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGKILL');
    await server?.exited;
    await own?.drop();
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
  });

  it('renders the guide and lists every operation of the document, loading nothing from elsewhere', async () => {
    const page = await openDocs();
    expect(await page.title()).toMatch(/Storefront/);
    const text = await page.evaluate(() => document.body.innerText);
    expect(text).toMatch(/Getting started/);

    const openapi = (await (await fetch(`${server.base}/docs/json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const expected = Object.entries(openapi.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(expected.length).toBeGreaterThan(40);
    const listed = new Set((await sidebarOperations(page)).map(({ method, path }) => `${method} ${path}`));
    expect(expected.filter((operation) => !listed.has(operation))).toEqual([]);
    expect(outside).toEqual([]);
    await page.close();
  }, 180_000);

  it('"try it" with an API key sends a real request to the server and shows its data', async () => {
    const page = await openDocs();
    await page.type('input[placeholder="Token"]', apiKey);
    // The operation's path as the document names it (with or without the /api/v1 of its server).
    const openapi = (await (await fetch(`${server.base}/docs/json`)).json()) as { paths: Record<string, unknown> };
    const path = Object.keys(openapi.paths).find((key) => /^(\/api\/v1)?\/attribute-sets$/.test(key)) as string;
    await page.goto(`${server.base}/docs/#tag/attribute-sets/GET${path}`, { waitUntil: 'networkidle0' });
    const [tryIt] = await page.$$(`xpath/.//button[contains(., "Test Request") and contains(., "get ${path})")]`);
    expect(tryIt).toBeTruthy();
    await tryIt.click();
    const [send] = await page.$$('xpath/.//button[starts-with(normalize-space(.), "Send")]');
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/attribute-sets', { timeout: 60_000 });
    await (send ?? (await page.waitForSelector('xpath/.//button[starts-with(normalize-space(.), "Send")]')))?.click();
    const response = await answered;
    expect(response.request().headers().authorization).toBe(`Bearer ${apiKey}`);
    expect(response.status()).toBe(200);
    expect(((await response.json()) as { data: { name: string }[] }).data.map((set) => set.name)).toContain(recordName);
    await page.waitForFunction((name) => document.body.innerText.includes(name), { timeout: 30_000 }, recordName);
    expect(outside).toEqual([]);
    await page.close();
  }, 180_000);
});
