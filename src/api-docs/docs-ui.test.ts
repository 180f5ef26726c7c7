import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext } from '../../test/helpers.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

describe('GET /docs (Scalar, loaded on the first visit)', () => {
  it('serves the page, the bundle it names and nothing from elsewhere, without credentials', async () => {
    const entry = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(entry.statusCode).toBe(301);
    expect(entry.headers.location).toBe('/docs/');
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['x-request-id']).toBeTruthy();
    expect(page.body).toMatch(/<title>Storefront API<\/title>/);
    // Offline: no URL of another host in the page (the bundle's own offline settings are in the config).
    expect(page.body.replace(/http:\/\/www\.w3\.org\/2000\/svg/g, '')).not.toMatch(/https?:\/\//);
    expect(page.body).toContain('"withDefaultFonts":false');
    expect(page.body).toContain('"telemetry":false');

    const bundleFile = /<script src="js\/(scalar-[0-9a-f]{12}\.js)"><\/script>/.exec(page.body)?.[1];
    expect(bundleFile).toBeTruthy();
    const bundle = await t.app.inject({ method: 'GET', url: `/docs/js/${bundleFile}` });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/^application\/javascript/);
    expect(bundle.headers['cache-control']).toMatch(/immutable/);
    expect(bundle.rawPayload.length).toBeGreaterThan(1_000_000);
    expect(bundle.body).toContain('createApiReference');
    const zipped = await t.app.inject({ method: 'GET', url: `/docs/js/${bundleFile}`, headers: { 'accept-encoding': 'gzip, br' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.rawPayload.length).toBeLessThan(bundle.rawPayload.length / 2);
    expect(gunzipSync(zipped.rawPayload).equals(bundle.rawPayload)).toBe(true);
  });

  it("serves the page's document: the API's own, with the guide, sidebar groups and a same-origin server", async () => {
    const served = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const answer = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(answer.statusCode).toBe(200);
    const page = answer.json();
    expect(page.paths).toEqual(served.paths);
    expect(page.components).toEqual(served.components);
    expect(page.info.description).toContain('## Getting started');
    expect(page.info.description).toContain('](/docs/pages/safe-writes.md)');
    expect(page.servers).toEqual([
      { url: new URL(served.servers[0].url, 'http://localhost').pathname.replace(/\/$/, '') || '/', description: 'this server' },
    ]);
    const operationTags = new Set(
      Object.values(served.paths as Record<string, Record<string, { tags?: string[] }>>).flatMap((item) =>
        Object.values(item).flatMap((operation) => operation.tags ?? []),
      ),
    );
    const grouped = (page['x-tagGroups'] as { tags: string[] }[]).flatMap((group) => group.tags);
    expect(grouped.sort()).toEqual(
      [...new Set([...operationTags, ...(served.tags ?? []).map((tag: { name: string }) => tag.name)])].sort(),
    );
  });

  it('serves the docs the guide links to as HTML pages, linked to each other, and 404s in the envelope for the rest', async () => {
    const linked = await t.app.inject({ method: 'GET', url: '/docs/pages/safe-writes.md' });
    expect(linked.statusCode).toBe(200);
    expect(linked.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(linked.body).toMatch(/^<!doctype html>/);
    expect(linked.body).toMatch(/<title>Safe writes: retries and optimistic concurrency · Storefront API<\/title>/);
    expect(linked.body).toMatch(/<h1 id="safe-writes-retries-and-optimistic-concurrency">Safe writes: retries/);
    // nothing from another host: no script, no stylesheet or image by URL
    expect(linked.body).not.toMatch(/<script|<link|src="https?:/);
    // every link from a page to another page (and its anchor) resolves on the server
    const guide = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json().info.description as string;
    const targets = [...guide.matchAll(/\]\((\/docs\/pages\/[a-z0-9-]+\.md)(?:#([^)]*))?\)/g)];
    expect(targets.length).toBeGreaterThan(0);
    for (const [, url, anchor] of targets) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      if (anchor) expect(page.body, `${url}#${anchor}`).toContain(`id="${anchor}"`);
    }
    for (const [, name, anchor] of linked.body.matchAll(/href="([a-z0-9-]+\.md)(?:#([^"]*))?"/g)) {
      const page = await t.app.inject({ method: 'GET', url: `/docs/pages/${name}` });
      expect(page.statusCode, name).toBe(200);
      if (anchor) expect(page.body, `${name}#${anchor}`).toContain(`id="${anchor}"`);
    }
    for (const url of ['/docs/pages/nothing.md', '/docs/pages/..%2FREADME.md', '/docs/js/scalar.js', '/docs/static/index.html']) {
      const missing = await t.app.inject({ method: 'GET', url });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    }
  });
});
