import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, ElementHandle, Page } from 'puppeteer-core';
import { issueAccessToken } from '../../src/auth/tokens.js';
import { openDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { createAdmin, createStore } from '../../src/stores/stores.service.js';
import { adminQuery, createOwnDatabase, type OwnDatabase } from './own-database.js';
import { type ServerProcess, startServerProcess } from './server-process.js';

/**
 * The console in a real browser (test/console-*.system.test.ts): Debian's chromium driven by puppeteer-core,
 * against `storefront serve` on a PostgreSQL database of its own (so a test may seed stores and change rows
 * while the server runs). One browser and one server per file; pages find controls by accessible name,
 * axe-core (from its npm package) checks each screen, and every screen's screenshot is saved (docs/console/
 * with CONSOLE_SCREENSHOTS=docs, else .tmp/console-screenshots/).
 */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const postgresUrl = process.env.TEST_DATABASE_URL;
/** Why the browser tests cannot run here, or null when they can. */
export const browserSkipReason = !existsSync(CHROMIUM)
  ? `skipped: no chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`
  : !postgresUrl
    ? 'skipped: the console browser tests need TEST_DATABASE_URL (a PostgreSQL server)'
    : null;

const ROOT = new URL('../..', import.meta.url).pathname;
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS === 'docs' ? join(ROOT, 'docs/console') : join(ROOT, '.tmp/console-screenshots');

export interface ConsoleAdmin {
  storeId: string;
  slug: string;
  email: string;
  password: string;
  /** an access token of this admin, for setting things up through the API */
  token: string;
}

export interface ConsoleHarness {
  base: string;
  server: ServerProcess;
  browser: Browser;
  /** requests pages made to any other origin (must stay empty) */
  outside: string[];
  /** CSP violations chromium reported (must stay empty) */
  cspViolations: string[];
  /** a store with one admin, made directly in the database */
  newAdmin(storeName?: string): Promise<ConsoleAdmin>;
  /** SQL on the server's database (deleting an admin, reading sessions) */
  sql(text: string): Promise<{ rows: Record<string, unknown>[] }>;
  /** a request to /api/v1 as `admin` */
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field in tests
  api(admin: ConsoleAdmin, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  newPage(options?: { javaScript?: boolean }): Promise<Page>;
  close(): Promise<void>;
}

/** `env`: more of the server's environment (a webhook test lets it reach 127.0.0.1). */
export async function startConsoleHarness(env: Record<string, string> = {}): Promise<ConsoleHarness> {
  const own: OwnDatabase = await createOwnDatabase(postgresUrl as string, 'storefront_console');
  const jwtSecret = randomBytes(32).toString('hex');
  const database = await openDatabase({ databaseUrl: own.url, dataDir: '', poolSize: 2 });
  await migrate(database.db);
  const server = await startServerProcess(
    { DATABASE_URL: own.url, STOREFRONT_JWT_SECRET: jwtSecret, STOREFRONT_RATE_LIMIT: '0', ...env },
    240_000,
  );
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  const outside: string[] = [];
  const cspViolations: string[] = [];
  const password = `pw-${randomBytes(8).toString('hex')}`;
  return {
    base: server.base,
    server,
    browser,
    outside,
    cspViolations,
    async newAdmin(storeName) {
      const slug = `c-${randomBytes(5).toString('hex')}`;
      const store = await createStore(database.db, { slug, name: storeName ?? `Store ${slug}` });
      const admin = await createAdmin(database.db, store.id, { email: `admin@${slug}.test`, password });
      const token = await issueAccessToken({ storeId: store.id, adminId: admin.id }, jwtSecret, 3600);
      return { storeId: store.id, slug, email: admin.email, password, token };
    },
    sql: (text) => adminQuery(own.url, text),
    async api(admin, method, path, body) {
      const response = await fetch(`${server.base}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${admin.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    async newPage({ javaScript = true } = {}) {
      const page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 900 });
      await page.setJavaScriptEnabled(javaScript);
      await page.setRequestInterception(true);
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.protocol === 'data:' || url.origin === server.base) return void request.continue();
        outside.push(request.url());
        void request.abort();
      });
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
      });
      return page;
    },
    async close() {
      await browser.close().catch(() => {});
      server.child.kill('SIGKILL');
      await server.exited;
      await database.close();
      await own.drop();
    },
  };
}

/** A control by its accessible name (and role), as a screen-reader user finds it. */
export async function byName(page: Page, role: string, name: string, timeout = 10_000): Promise<ElementHandle<Element>> {
  const handle = await page.waitForSelector(`::-p-aria([name="${name}"][role="${role}"])`, { timeout });
  if (!handle) throw new Error(`no ${role} named "${name}"`);
  return handle;
}

/** Clicks a link or button by name and waits for the page it loads. */
export async function follow(page: Page, role: 'link' | 'button', name: string): Promise<void> {
  const control = await byName(page, role, name);
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), control.click()]);
}

export async function signInAt(
  page: Page,
  base: string,
  admin: Pick<ConsoleAdmin, 'slug' | 'email' | 'password'>,
  path = '/console',
): Promise<void> {
  await page.goto(`${base}/console/login?next=${encodeURIComponent(path)}`, { waitUntil: 'load' });
  await (await byName(page, 'textbox', 'Store')).type(admin.slug);
  await (await byName(page, 'textbox', 'Email')).type(admin.email);
  await (await byName(page, 'textbox', 'Password')).type(admin.password);
  await follow(page, 'button', 'Sign in');
}

const axeSource = () => readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is now (`rule: targets`). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern: nothing is inlined.
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(axeSource());
  const violations = (await page.evaluate(
    'axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => String(n.target)) })))',
  )) as { id: string; impact: string; targets: string[] }[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.targets.join(', ')}`);
}

/** Saves the page as docs/console/<name>.png (or under .tmp/) for docs/console.md. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) as `${string}.png`, fullPage: true });
}

/** The text a user reads on the page. */
export const textOf = (page: Page) => page.evaluate(() => document.body.innerText);
