import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext } from '../../test/helpers.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

describe('GET /docs (Swagger UI, loaded on the first visit)', () => {
  it('serves the UI page, its assets and the service own OpenAPI document, without credentials', async () => {
    const old = await t.app.inject({ method: 'GET', url: '/docs/static/index.html' });
    expect(old.statusCode).toBe(302);
    expect(old.headers.location).toBe('/docs/');
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toMatch(/swagger-ui/);
    expect(page.headers['x-request-id']).toBeTruthy();

    const entry = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(entry.statusCode).toBe(200);

    const script = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' });
    expect(script.statusCode).toBe(200);
    expect(Number(script.headers['content-length'])).toBe(script.rawPayload.length);
    expect(script.rawPayload.length).toBeGreaterThan(100_000);

    const document = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(document.statusCode).toBe(200);
    const served = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(document.json()).toEqual(served.json());
  });

  it('answers 404 for what the UI does not have', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/docs/static/nothing-here.js' });
    expect(missing.statusCode).toBe(404);
  });
});
