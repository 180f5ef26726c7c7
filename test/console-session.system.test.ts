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

/** Sign-in, the session's cookie, CSRF, sign-out, a deleted admin, JavaScript off: the console's door in chromium. */

if (browserSkipReason) console.warn(`console-session.system.test.ts: ${browserSkipReason}`);

describe.skipIf(browserSkipReason)(`the console's sign-in in chromium${browserSkipReason ? ` (${browserSkipReason})` : ''}`, () => {
  let h: ConsoleHarness;
  beforeAll(async () => {
    h = await startConsoleHarness();
  }, 300_000);
  afterAll(async () => h?.close());

  async function cookieOf(page: Page) {
    const cookies = await page.browserContext().cookies();
    return cookies.find((cookie) => cookie.name === 'sf_console');
  }

  it('signs in by the fields\' names, shows every navigation link, passes axe, and "Sign out" ends the session', async () => {
    const admin = await h.newAdmin('<img src=x onerror=alert(1)>');
    const page = await h.newPage();
    await page.goto(`${h.base}/console/login`, { waitUntil: 'load' });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in');

    await signInAt(page, h.base, admin);
    expect(new URL(page.url()).pathname).toBe('/console');
    for (const name of [
      'Overview',
      'Products',
      'Collections',
      'Customers',
      'Orders',
      'Imports',
      'Exports',
      'Events',
      'Webhooks',
      'API keys',
      'Requests',
    ]) {
      await byName(page, 'link', name);
    }
    // the store's name is shown as text, and nothing ran
    expect(await textOf(page)).toContain('<img src=x onerror=alert(1)>');
    expect(await page.$('header img')).toBeNull();
    expect(await seriousViolations(page)).toEqual([]);

    const cookie = await cookieOf(page);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console', secure: false });
    expect(await page.evaluate(() => document.cookie)).toBe('');

    await follow(page, 'button', 'Sign out');
    expect(new URL(page.url()).pathname).toBe('/console/login');
    await page.goto(`${h.base}/console`, { waitUntil: 'load' });
    expect(new URL(page.url()).pathname).toBe('/console/login');
    expect(h.outside).toEqual([]);
    expect(h.cspViolations).toEqual([]);
    await page.close();
  }, 120_000);

  it("refuses a form posted without the session's CSRF token (403) and keeps the session", async () => {
    const admin = await h.newAdmin();
    const page = await h.newPage();
    await signInAt(page, h.base, admin);
    // "Sign out" posted with a forged token (a cross-site post is refused by its Origin too: src/console/console.test.ts).
    const status = await page.evaluate(async (base) => {
      const res = await fetch(`${base}/console/logout`, { method: 'POST', body: new URLSearchParams({ _csrf: 'forged' }) });
      return res.status;
    }, h.base);
    expect(status).toBe(403);
    const sessions = await h.sql(`SELECT count(*)::int AS n FROM console_sessions WHERE store_id = '${admin.storeId}'`);
    expect(sessions.rows[0].n).toBe(1);
    await page.reload({ waitUntil: 'load' });
    expect(new URL(page.url()).pathname).toBe('/console');
    await page.close();
  }, 120_000);

  it("ends a deleted admin's session on the next page", async () => {
    const admin = await h.newAdmin();
    const page = await h.newPage();
    await signInAt(page, h.base, admin);
    await h.sql(`DELETE FROM admins WHERE store_id = '${admin.storeId}'`);
    await follow(page, 'link', 'Products');
    expect(new URL(page.url()).pathname).toBe('/console/login');
    await page.close();
  }, 120_000);

  it('throttles sign-in: the sixth failure in a row for an account is refused with 429', async () => {
    const admin = await h.newAdmin();
    const page = await h.newPage({ javaScript: false });
    let status = 0;
    for (let attempt = 0; attempt < 6; attempt++) {
      await page.goto(`${h.base}/console/login`, { waitUntil: 'load' });
      await (await byName(page, 'textbox', 'Store')).type(admin.slug);
      await (await byName(page, 'textbox', 'Email')).type(admin.email);
      await (await byName(page, 'textbox', 'Password')).type(attempt === 5 ? admin.password : 'wrong-password');
      const [response] = await Promise.all([
        page.waitForNavigation({ waitUntil: 'load' }),
        (await byName(page, 'button', 'Sign in')).click(),
      ]);
      status = response?.status() ?? 0;
      if (attempt < 5) expect(status).toBe(401);
    }
    expect(status).toBe(429);
    expect(await textOf(page)).toMatch(/Too many attempts/);
    await page.close();
  }, 120_000);

  it('works with JavaScript off: sign in, read a page, follow the navigation', async () => {
    const admin = await h.newAdmin();
    const page = await h.newPage({ javaScript: false });
    await signInAt(page, h.base, admin);
    expect(await byName(page, 'heading', 'Overview')).toBeTruthy();
    await follow(page, 'link', 'Orders');
    expect(await byName(page, 'heading', 'Orders')).toBeTruthy();
    await page.close();
  }, 120_000);
});
