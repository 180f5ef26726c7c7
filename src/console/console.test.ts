import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext } from '../../test/helpers.js';
import { nextAddress, postLogin, sessionCookieOf, signIn } from '../../test/support/console.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const CSP = "default-src 'self'; frame-ancestors 'none'";

const countSessions = async (storeId: string) =>
  (await t.database.db.selectFrom('console_sessions').select('secret_hash').where('store_id', '=', storeId).execute()).length;

describe('console sign-in and session', () => {
  it('sends a visitor without a session to the sign-in page, which names its fields', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/console/products' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/console/login?next=%2Fconsole%2Fproducts');
    const login = await t.app.inject({ method: 'GET', url: '/console/login' });
    expect(login.statusCode).toBe(200);
    expect(login.headers['content-security-policy']).toContain(CSP);
    for (const label of ['>Store</label>', '>Email</label>', '>Password</label>', '>Sign in</button>']) expect(login.body).toContain(label);
  });

  it('signs in with the admin of a store: an HttpOnly, SameSite=Strict cookie on /console, a new session each time', async () => {
    const store = await t.newStore();
    const first = await postLogin(t.app, { store: store.slug, email: store.email, password: store.password, next: '/console/orders' });
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/console/orders');
    const line = [first.headers['set-cookie']].flat()[0] as string;
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/SameSite=Strict/);
    expect(line).toMatch(/Path=\/console/);
    expect(line).not.toMatch(/Secure/);
    const second = await postLogin(t.app, { store: store.slug, email: store.email, password: store.password });
    expect(sessionCookieOf(second.headers['set-cookie'])).not.toBe(sessionCookieOf(first.headers['set-cookie']));
    expect(await countSessions(store.id)).toBe(2);
    // the stored id is a hash, never the cookie's secret
    const stored = await t.database.db.selectFrom('console_sessions').select('secret_hash').where('store_id', '=', store.id).execute();
    for (const row of stored) expect(sessionCookieOf(first.headers['set-cookie'])).not.toContain(row.secret_hash);
  });

  it('never redirects a sign-in to another host', async () => {
    const store = await t.newStore();
    const res = await postLogin(t.app, { store: store.slug, email: store.email, password: store.password, next: '//evil.test/x' });
    expect(res.headers.location).toBe('/console');
  });

  it('refuses wrong credentials with one message and no session', async () => {
    const store = await t.newStore();
    const res = await postLogin(t.app, { store: store.slug, email: store.email, password: 'wrong-password' });
    expect(res.status).toBe(401);
    expect(res.body).toContain('Wrong store, email or password.');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await countSessions(store.id)).toBe(0);
  });

  it('throttles as POST /auth does, sharing its counts: the 6th try for an account from one address is 429', async () => {
    const store = await t.newStore();
    const address = nextAddress();
    const wrong = { storeSlug: store.slug, email: store.email, password: 'wrong-password' };
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth', payload: wrong, remoteAddress: address });
      expect(res.statusCode).toBe(401);
    }
    for (let i = 0; i < 2; i++)
      expect((await postLogin(t.app, { store: store.slug, email: store.email, password: 'x' }, address)).status).toBe(401);
    const throttled = await postLogin(t.app, { store: store.slug, email: store.email, password: store.password }, address);
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect(throttled.headers['content-security-policy']).toContain(CSP);
    expect(await countSessions(store.id)).toBe(0);
    // from another address the right password still works
    expect((await postLogin(t.app, { store: store.slug, email: store.email, password: store.password })).status).toBe(303);
  });

  it('shows pages with the navigation, the CSP and "Sign out"; every nav entry answers', async () => {
    const store = await t.newStore();
    const console = await signIn(t.app, store);
    const page = await console.get('/console');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain(CSP);
    expect(page.headers['cache-control']).toBe('no-store');
    const links = [...page.body.matchAll(/<li><a href="([^"]+)"[^>]*>([^<]+)<\/a><\/li>/g)].map((m) => m[2]);
    expect(links).toEqual([
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
    ]);
    expect(page.body).toContain('>Sign out</button>');
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(page.body).not.toMatch(/\sstyle=/);
    for (const [, path] of page.body.matchAll(/<li><a href="([^"]+)"/g)) {
      const screen = await console.get(path);
      expect(screen.status, path).toBe(200);
      expect(screen.headers['content-security-policy'], path).toContain(CSP);
    }
  });

  it('escapes what it shows: a store named like markup is text', async () => {
    const store = await t.newStore();
    const evil = '<img src=x onerror=alert(1)></script>';
    await t.database.db.updateTable('stores').set({ name: evil }).where('id', '=', store.id).execute();
    const page = await (await signIn(t.app, store)).get('/console');
    expect(page.body).not.toContain('<img src=x');
    expect(page.body).toContain('&#60;img src&#61;x onerror&#61;alert(1)&#62;&#60;/script&#62;');
  });

  it('keeps every page at most 30 KB of JavaScript and CSS, gzipped, served from here with a long cache', async () => {
    const store = await t.newStore();
    const page = await (await signIn(t.app, store)).get('/console');
    const assets = [...page.body.matchAll(/<(?:script src|link rel="stylesheet" href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets).toHaveLength(2);
    let gzipped = 0;
    for (const url of assets) {
      expect(url).toMatch(/^\/console\/assets\/[\w-]+\.(js|css)$/);
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toContain('immutable');
      expect(res.headers['content-encoding']).toBe('gzip');
      gzipped += res.rawPayload.length;
      const plain = await t.app.inject({ method: 'GET', url });
      expect(gzipSync(plain.rawPayload).length).toBeGreaterThan(0);
    }
    expect(gzipped).toBeLessThanOrEqual(30 * 1024);
  });
});

describe('console CSRF and the end of a session', () => {
  it('refuses a POST without the session CSRF token (403) and changes nothing', async () => {
    const store = await t.newStore();
    const console = await signIn(t.app, store);
    const other = await signIn(t.app, await t.newStore());
    const refused = [
      await console.post('/console/logout', {}),
      await console.post('/console/logout', { _csrf: 'forged' }),
      await console.post('/console/logout', { _csrf: other.csrf }),
      await console.post('/console/logout', { _csrf: console.csrf }, { origin: 'https://evil.test' }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(403);
      expect(res.headers['content-security-policy']).toContain(CSP);
    }
    expect(await countSessions(store.id)).toBe(1);
    expect((await console.get('/console')).status).toBe(200);
  });

  it('"Sign out" ends the session at once', async () => {
    const store = await t.newStore();
    const console = await signIn(t.app, store);
    const out = await console.post('/console/logout', { _csrf: console.csrf });
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/console/login');
    expect([out.headers['set-cookie']].flat()[0]).toMatch(/sf_console=;/);
    expect(await countSessions(store.id)).toBe(0);
    expect((await console.get('/console')).status).toBe(303);
  });

  it("ends a deleted admin's and a deleted store's sessions", async () => {
    const store = await t.newStore();
    const console = await signIn(t.app, store);
    await t.database.db.deleteFrom('admins').where('store_id', '=', store.id).execute();
    expect((await console.get('/console')).status).toBe(303);
    expect(await countSessions(store.id)).toBe(0);

    const other = await t.newStore();
    const session = await signIn(t.app, other);
    await t.database.db.deleteFrom('stores').where('id', '=', other.id).execute();
    expect((await session.get('/console')).status).toBe(303);
  });

  it('ends a session past its lifetime', async () => {
    const store = await t.newStore();
    const console = await signIn(t.app, store);
    await t.database.db
      .updateTable('console_sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('store_id', '=', store.id)
      .execute();
    expect((await console.get('/console')).status).toBe(303);
  });
});

describe('console over https', () => {
  it('marks the cookie Secure when the public URL is https', async () => {
    const https = await setupTestApp({ publicUrl: 'https://shop.example' });
    try {
      const store = await https.newStore();
      const res = await postLogin(https.app, { store: store.slug, email: store.email, password: store.password });
      expect([res.headers['set-cookie']].flat()[0]).toMatch(/; Secure/);
    } finally {
      await https.close();
    }
  });
});
