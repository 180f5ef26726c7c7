import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserSkipReason,
  byName,
  type ConsoleAdmin,
  type ConsoleHarness,
  follow,
  screenshot,
  seriousViolations,
  signInAt,
  startConsoleHarness,
  textOf,
} from './support/console-browser.js';
import { csvFixture } from './support/csv.fixtures.js';
import { receiver } from './support/webhook-receiver.js';

/** Imports, Exports and Webhooks in chromium: the move in with a bad row fixed, and a failing webhook retried. */

if (browserSkipReason) console.warn(`console-ops.system.test.ts: ${browserSkipReason}`);

const EVIL = '<img src=x onerror=alert(1)>';
const FIXTURES = join(import.meta.dirname, 'fixtures', 'csv');
const rowsOf = (text: string): string[][] => parse(text, { relax_column_count: true });
const csvText = (rows: string[][]) => rows.map((row) => row.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(',')).join('\n');

describe.skipIf(browserSkipReason)(`Imports, Exports and Webhooks in chromium${browserSkipReason ? ` (${browserSkipReason})` : ''}`, () => {
  let h: ConsoleHarness;
  let admin: ConsoleAdmin;
  let page: Page;
  const dir = mkdtempSync(join(tmpdir(), 'console-ops-'));
  beforeAll(async () => {
    h = await startConsoleHarness({ STOREFRONT_WEBHOOK_ALLOW_PRIVATE: 'true', STOREFRONT_WEBHOOK_RETRY_SCHEDULE: '0.2' });
    admin = await h.newAdmin('Move-in store');
    page = await h.newPage();
    await signInAt(page, h.base, admin, '/console/imports');
  }, 300_000);
  afterAll(async () => {
    expect(h.outside).toEqual([]);
    expect(h.cspViolations).toEqual([]);
    await h?.close();
  });

  /** Chooses the file and resource, presses the button, and waits for the job to end on its page (htmx). */
  async function importFile(path: string, button: 'Dry run' | 'Import') {
    await page.goto(`${h.base}/console/imports`, { waitUntil: 'load' });
    await page.select('#import-resource', 'products');
    const file = await byName(page, 'button', 'File').catch(() => page.$('#import-file'));
    await (file as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(path);
    await follow(page, 'button', button);
    await page.waitForSelector('[data-status="succeeded"]', { timeout: 60_000 });
  }

  it("moves Shopify's sample file in: dry run, import, a product with its variants and images", async () => {
    await importFile(join(FIXTURES, 'shopify-legacy-template.csv'), 'Dry run');
    expect(await textOf(page)).toMatch(/Would create\s+3/);
    expect((await h.api(admin, 'GET', '/products')).body.data).toEqual([]);
    await importFile(join(FIXTURES, 'shopify-legacy-template.csv'), 'Import');
    expect(await seriousViolations(page)).toEqual([]);
    const products = (await h.api(admin, 'GET', '/products?handle=example-shirt')).body.data;
    await page.goto(`${h.base}/console/products/${products[0].id}`, { waitUntil: 'load' });
    const text = await textOf(page);
    expect(text).toContain('SRT_COT_122');
    expect(text).toContain('https://burst.shopifycdn.com/photos/green-t-shirt.jpg');
  });

  it('shows a bad row, downloads the failed rows, and imports them fixed', async () => {
    const original = rowsOf(csvFixture('shopify-current.csv'));
    const price = original[0].indexOf('Price');
    original[2][price] = EVIL;
    writeFileSync(join(dir, 'bad.csv'), csvText(original));
    await importFile(join(dir, 'bad.csv'), 'Import');
    const text = await textOf(page);
    expect(text).toMatch(/Refused\s+1/);
    expect(text).toContain('Price');
    expect(await page.$$eval('main img', (images) => images.length)).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'import-job');
    const link = await byName(page, 'link', 'Download failed rows');
    const href = (await link.evaluate((a) => a.getAttribute('href'))) as string;
    const failed = rowsOf(await page.evaluate((url) => fetch(url).then((r) => r.text()), href));
    expect(failed[0].at(-1)).toBe('Error');
    failed[2][price] = '120.00';
    writeFileSync(join(dir, 'fixed.csv'), csvText(failed));
    await importFile(join(dir, 'fixed.csv'), 'Import');
    expect(await textOf(page)).toMatch(/Refused\s+0/);
    await page.goto(`${h.base}/console/imports`, { waitUntil: 'load' });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'imports');
  });

  it('offers exports', async () => {
    await page.goto(`${h.base}/console/exports`, { waitUntil: 'load' });
    await byName(page, 'button', 'Export');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'exports');
  });

  it('shows a failed attempt with its status and body as text; Retry turns it green without reloading', async () => {
    let healthy = false;
    const hook = await receiver(() => (healthy ? 200 : { status: 500, body: `down ${EVIL}` }));
    await page.goto(`${h.base}/console/webhooks`, { waitUntil: 'load' });
    await (await byName(page, 'textbox', 'URL')).type(hook.url);
    await follow(page, 'button', 'Create webhook');
    expect(await textOf(page)).toContain('shown this once');
    await follow(page, 'link', 'Open the webhook');
    const webhookId = page.url().split('/').pop() as string;
    await h.api(admin, 'POST', '/products', { title: 'Webhook tee' });
    let delivery: { id: string; status: string } | undefined;
    for (let i = 0; i < 200 && delivery?.status !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      delivery = (await h.api(admin, 'GET', `/webhooks/${webhookId}/deliveries`)).body.data[0];
    }
    await page.goto(`${h.base}/console/webhooks/${webhookId}`, { waitUntil: 'load' });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'webhooks');
    await page.goto(`${h.base}/console/webhooks/${webhookId}/deliveries/${delivery?.id}`, { waitUntil: 'load' });
    const text = await textOf(page);
    expect(text).toContain('500');
    expect(text).toContain(`down ${EVIL}`);
    expect(await page.$$eval('main img', (images) => images.length)).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'webhook-delivery');

    healthy = true;
    await page.evaluate('window.stillThisPage = true');
    await (await byName(page, 'button', 'Retry')).click();
    await page.waitForSelector('[data-status="succeeded"]', { timeout: 30_000 });
    expect(await page.evaluate('window.stillThisPage')).toBe(true);
    expect(await textOf(page)).toContain('200');
    await hook.close();
  });
});
