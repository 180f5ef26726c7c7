import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserSkipReason,
  type ConsoleAdmin,
  type ConsoleHarness,
  follow,
  screenshot,
  seriousViolations,
  signInAt,
  startConsoleHarness,
  textOf,
} from './support/console-browser.js';

/** The read screens in chromium: each one from the navigation, axe-checked, screenshotted, markup shown as text. */

if (browserSkipReason) console.warn(`console-screens.system.test.ts: ${browserSkipReason}`);

const EVIL = '<img src=x onerror=alert(1)></script>';

describe.skipIf(browserSkipReason)(`the console's read screens in chromium${browserSkipReason ? ` (${browserSkipReason})` : ''}`, () => {
  let h: ConsoleHarness;
  let admin: ConsoleAdmin;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    h = await startConsoleHarness();
    admin = await h.newAdmin('Demo store');
    const make = async (path: string, body: unknown) => {
      const res = await h.api(admin, 'POST', path, body);
      if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data.id as string;
    };
    ids.collection = await make('/collections', { title: 'Summer' });
    ids.product = await make('/products', {
      title: `Classic Tee ${EVIL}`,
      vendor: 'Acme',
      price: 19.99,
      customFields: { note: EVIL },
      options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
      selectedCollections: [ids.collection],
    });
    ids.customer = await make('/customers', {
      userName: 'ada',
      firstName: 'Ada',
      lastName: EVIL,
      password: 'long-secret-1',
      address: { city: 'Paris' },
    });
    ids.order = await make('/orders', {
      cartItems: [{ productId: ids.product, title: 'Classic Tee', price: 19.99, quantity: 2 }],
      subTotal: 39.98,
      totalAmount: 39.98,
      userId: ids.customer,
    });
    // a key on the API keys screen, with its columns (its last use: "never" until a server's minute writes it)
    await make('/api-keys', { name: 'ERP sync', scopes: ['products:read', 'orders:read'] });
  }, 300_000);
  afterAll(async () => h?.close());

  it('shows every screen from the navigation and each record page: no serious axe violation, markup as text', async () => {
    const page = await h.newPage();
    await signInAt(page, h.base, admin);
    const visited: string[] = [];
    const check = async (name: string) => {
      expect(await seriousViolations(page), name).toEqual([]);
      expect(await page.$$eval('main img, main script', (nodes) => nodes.length), name).toBe(0);
      await screenshot(page, name);
      visited.push(name);
    };
    await check('overview');
    for (const [link, name] of [
      ['Products', 'products'],
      ['Collections', 'collections'],
      ['Customers', 'customers'],
      ['Orders', 'orders'],
      ['API keys', 'api-keys'],
    ]) {
      await follow(page, 'link', link);
      await check(name);
    }
    for (const [resource, id] of [
      ['products', ids.product],
      ['collections', ids.collection],
      ['customers', ids.customer],
      ['orders', ids.order],
    ]) {
      await page.goto(`${h.base}/console/${resource}/${id}`, { waitUntil: 'load' });
      await check(`${resource.replace(/s$/, '')}-page`);
    }
    await page.goto(`${h.base}/console/products/${ids.product}`, { waitUntil: 'load' });
    expect(await textOf(page)).toContain(`Classic Tee ${EVIL}`);
    expect(h.outside).toEqual([]);
    expect(h.cspViolations).toEqual([]);
    expect(visited).toHaveLength(10);
    await page.close();
  }, 180_000);
});
