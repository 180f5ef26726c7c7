import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { type ConsoleClient, signIn } from '../../test/support/console.fixtures.js';
import { settled } from '../../test/support/feed.fixtures.js';

/** The Events screen (CONTRACT §12) through app.inject: newest first, filters, escaping, tenancy, and "Live"'s fragment. */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const EVIL = '<img src=x onerror=alert(1)></script>';
const fromEntities = (text: string) => text.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)));
/** The titles in the page's event JSON blocks, in the order shown. */
const titlesOf = (body: string) => [...fromEntities(body).matchAll(/"title": "([^"]*)"/g)].map((match) => match[1]);
const hrefOf = (body: string, pattern: RegExp) => fromEntities(pattern.exec(body)?.[1] ?? '');

async function created(store: TestStore, url: string, body: unknown): Promise<string> {
  const reply = await t.call(store, 'POST', url, body);
  if (reply.status !== 201) throw new Error(`POST ${url}: ${reply.status}`);
  return reply.body.data.id;
}

describe('the Events screen', () => {
  let store: TestStore;
  let console: ConsoleClient;
  let first: string;
  beforeAll(async () => {
    store = await t.newStore();
    first = await created(store, '/products', { title: 'First' });
    await created(store, '/products', { title: EVIL });
    await t.call(store, 'PATCH', `/products/${first}`, { title: 'First again' });
    await settled(t);
    console = await signIn(t.app, store);
  });

  it('lists the feed newest first with each event as JSON, markup as text', async () => {
    const page = await console.get('/console/events');
    expect(page.status).toBe(200);
    expect(titlesOf(page.body)).toEqual(['First again', EVIL, 'First']);
    expect(page.body).not.toContain('<img');
    expect(page.body.split('</script>').length - 1).toBe(1);
    expect(page.body).toMatch(/<label for="filter-search">Search<\/label>/);
    expect(page.body).toMatch(/<button type="submit" hx-get="[^"]+"[^>]*>Live<\/button>/);
  });

  it('filters by type and by record id (Search)', async () => {
    expect(titlesOf((await console.get('/console/events?type=product.created')).body)).toEqual([EVIL, 'First']);
    expect(titlesOf((await console.get(`/console/events?search=${first}`)).body)).toEqual(['First again', 'First']);
    expect(titlesOf((await console.get(`/console/events?type=product.updated&search=${first}`)).body)).toEqual(['First again']);
    expect((await console.get('/console/events?type=product.exploded')).status).toBe(400);
  });

  it("shows nothing of another store's record", async () => {
    const other = await t.newStore();
    const theirs = await created(other, '/products', { title: 'Theirs' });
    await settled(t);
    const page = await console.get(`/console/events?search=${theirs}`);
    expect(page.status).toBe(200);
    expect(titlesOf(page.body)).toEqual([]);
    expect(page.body).toContain('No events.');
  });

  it('"Live" swaps in a poller; the poller answers the events committed after the page with the next poller', async () => {
    const page = await console.get(`/console/events?search=${first}`);
    const start = hrefOf(page.body, /hx-get="([^"]+)"[^>]*>Live</);
    expect(start).toMatch(/^\/console\/events\/live\?/);
    const poller = await console.get(start);
    expect(poller.status).toBe(200);
    const next = hrefOf(poller.body, /<div id="live" hx-get="([^"]+)" hx-trigger="load"/);
    expect(next).not.toContain('start=');
    await t.call(store, 'PATCH', `/products/${first}`, { title: `Live ${EVIL}` });
    await created(store, '/products', { title: 'Not this record' });
    const answer = await console.get(next);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('<template><tbody hx-swap-oob="afterbegin:#events-body">');
    expect(titlesOf(answer.body)).toEqual([`Live ${EVIL}`]);
    expect(answer.body).not.toContain('<img');
    expect(hrefOf(answer.body, /<div id="live" hx-get="([^"]+)"/)).not.toBe(next);
  });
});
