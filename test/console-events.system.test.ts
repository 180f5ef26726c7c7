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
} from './support/console-browser.js';

/** The Events screen in chromium: newest first, filtered by type and record, and "Live" without reloading. */

if (browserSkipReason) console.warn(`console-events.system.test.ts: ${browserSkipReason}`);

const EVIL = '<img src=x onerror=alert(1)></script>';

/** The event types and record ids of the table's rows, top to bottom. */
const rowsOf = (page: Page) =>
  page.$$eval('#events-body tr', (rows) =>
    rows.map((row) => [...row.querySelectorAll('td')].slice(1, 3).map((cell) => cell.textContent?.trim())),
  );

describe.skipIf(browserSkipReason)(`the Events screen in chromium${browserSkipReason ? ` (${browserSkipReason})` : ''}`, () => {
  let h: ConsoleHarness;
  let admin: ConsoleAdmin;
  let page: Page;
  const ids: Record<string, string> = {};
  const make = async (path: string, body: unknown) => {
    const res = await h.api(admin, 'POST', path, body);
    if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.id as string;
  };
  beforeAll(async () => {
    h = await startConsoleHarness();
    admin = await h.newAdmin('Events store');
    ids.tee = await make('/products', { title: 'Classic Tee', price: 19.99 });
    ids.mug = await make('/products', { title: `Mug ${EVIL}`, price: 9 });
    ids.customer = await make('/customers', { userName: 'ada', firstName: 'Ada', password: 'long-secret-1' });
    await h.api(admin, 'PATCH', `/products/${ids.tee}`, { title: 'Classic Tee 2' });
    page = await h.newPage();
    await signInAt(page, h.base, admin);
  }, 300_000);
  afterAll(async () => {
    expect(h.outside).toEqual([]);
    expect(h.cspViolations).toEqual([]);
    await h?.close();
  });

  it('lists the feed newest first, each event with its JSON, markup as text; axe finds nothing serious', async () => {
    await follow(page, 'link', 'Events');
    expect(await rowsOf(page)).toEqual([
      ['product.updated', ids.tee],
      ['customer.created', ids.customer],
      ['product.created', ids.mug],
      ['product.created', ids.tee],
    ]);
    expect(await page.$$eval('main img, main script', (nodes) => nodes.length)).toBe(0);
    const json = await page.$eval(`[aria-label^="Event "]`, (pre) => JSON.parse(pre.textContent ?? ''));
    expect(json).toMatchObject({ type: 'product.updated', data: { id: ids.tee, title: 'Classic Tee 2' } });
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('filters by type and by record id', async () => {
    await page.select('#filter-type', 'product.created');
    await follow(page, 'button', 'Filter');
    expect(await rowsOf(page)).toEqual([
      ['product.created', ids.mug],
      ['product.created', ids.tee],
    ]);
    await page.select('#filter-type', '');
    await (await byName(page, 'searchbox', 'Search')).type(ids.tee);
    await follow(page, 'button', 'Filter');
    expect(await rowsOf(page)).toEqual([
      ['product.updated', ids.tee],
      ['product.created', ids.tee],
    ]);
  });

  it('"Live" shows an event committed by an API call within a second, without reloading', async () => {
    await page.goto(`${h.base}/console/events`, { waitUntil: 'load' });
    await page.evaluate('window.stillThisPage = true');
    await (await byName(page, 'button', 'Live')).click();
    await page.waitForSelector('#live[hx-trigger] [role="status"]');
    // the poller's long poll is held by now; the write commits, and its event is on top within a second
    await new Promise((resolve) => setTimeout(resolve, 500));
    ids.cap = await make('/products', { title: `Cap ${EVIL}`, price: 12 });
    const committed = Date.now();
    await page.waitForFunction(
      (id) => document.querySelector('#events-body tr td:nth-child(3)')?.textContent?.trim() === id,
      { timeout: 5_000 },
      ids.cap,
    );
    expect(Date.now() - committed).toBeLessThan(1_000);
    expect(await page.evaluate('window.stillThisPage')).toBe(true);
    expect((await rowsOf(page)).slice(0, 2)).toEqual([
      ['product.created', ids.cap],
      ['product.updated', ids.tee],
    ]);
    expect(await page.$$eval('main img, main script', (nodes) => nodes.length)).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.$eval('#events-body details', (details) => details.setAttribute('open', ''));
    await screenshot(page, 'events');
  });
});
