import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserSkipReason,
  byName,
  type ConsoleHarness,
  follow,
  screenshot,
  seriousViolations,
  signInAt,
  startConsoleHarness,
  textOf,
} from './support/console-browser.js';

/**
 * The Requests screen in chromium, against `storefront serve` with its Requests log on (the default): API
 * requests made with a key show up (written by the server's own batches), escaped, filtered by the controls'
 * names, and axe finds nothing serious.
 */

if (browserSkipReason) console.warn(`console-requests.system.test.ts: ${browserSkipReason}`);

const HOSTILE_NAME = '<img src=x onerror=alert(1)>';
const HOSTILE_KEY = '</script><script>alert(2)</script>';

describe.skipIf(browserSkipReason)(`the Requests screen in chromium${browserSkipReason ? ` (${browserSkipReason})` : ''}`, () => {
  let h: ConsoleHarness;
  beforeAll(async () => {
    h = await startConsoleHarness();
  }, 300_000);
  afterAll(async () => h?.close());

  /** Reloads until the page shows `text`: the server writes its log every second, the machine may be slow. */
  async function reloadUntil(page: Page, text: string): Promise<void> {
    const until = Date.now() + 60_000;
    while (!(await textOf(page)).includes(text)) {
      if (Date.now() > until) throw new Error(`the page never showed ${text}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      await page.reload({ waitUntil: 'load' });
    }
  }

  it('shows the API requests of the store, escaped, filtered by status and search, with the errors of the day', async () => {
    const admin = await h.newAdmin();
    const other = await h.newAdmin();
    const created = await h.api(admin, 'POST', '/api-keys', { name: HOSTILE_NAME, scopes: ['products:read'] });
    expect(created.status).toBe(201);
    const key = created.body.data.key as string;
    const send = async (credential: string, method: string, path: string, headers: Record<string, string> = {}, body?: object) => {
      const res = await fetch(`${h.base}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${credential}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body ? JSON.stringify(body) : undefined,
      });
      await res.arrayBuffer();
      return { status: res.status, requestId: res.headers.get('x-request-id') as string };
    };
    const listed = await send(key, 'GET', '/products');
    const missing = await send(key, 'GET', '/products/0123456789abcdef01234567');
    const refused = await send(admin.token, 'POST', '/products', { 'idempotency-key': HOSTILE_KEY }, { price: 1 });
    const elsewhere = await send(other.token, 'GET', '/products');
    expect([listed.status, missing.status, refused.status, elsewhere.status]).toEqual([200, 404, 400, 200]);

    const dialogs: string[] = [];
    const page = await h.newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await signInAt(page, h.base, admin);
    await follow(page, 'link', 'Requests');
    expect(await byName(page, 'heading', 'Requests')).toBeTruthy();
    await reloadUntil(page, refused.requestId);
    const text = await textOf(page);
    for (const shown of [listed.requestId, missing.requestId, HOSTILE_NAME, HOSTILE_KEY, 'VALIDATION_ERROR', '/api/v1/products/:id']) {
      expect(text).toContain(shown);
    }
    // another store's request is not here; the hostile texts are text: no image, no script ran
    expect(text).not.toContain(elsewhere.requestId);
    expect(await page.$('main img')).toBeNull();
    expect(await byName(page, 'heading', 'Errors in the last 24 hours')).toBeTruthy();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'requests');

    // the status filter, by its name
    await (await byName(page, 'combobox', 'Status')).select('4xx');
    await follow(page, 'button', 'Filter');
    expect(new URL(page.url()).searchParams.get('status')).toBe('4xx');
    const filtered = await textOf(page);
    expect(filtered).toContain(missing.requestId);
    expect(filtered).not.toContain(listed.requestId);

    // the search box named "Search": a request's Idempotency-Key finds it alone
    await follow(page, 'link', 'Requests');
    await (await byName(page, 'searchbox', 'Search')).type(HOSTILE_KEY);
    await follow(page, 'button', 'Filter');
    const searched = await textOf(page);
    expect(searched).toContain(refused.requestId);
    expect(searched).not.toContain(missing.requestId);
    expect(await seriousViolations(page)).toEqual([]);

    expect(dialogs).toEqual([]);
    expect(h.outside).toEqual([]);
    expect(h.cspViolations).toEqual([]);
    await page.close();
  }, 180_000);
});
