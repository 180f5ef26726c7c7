import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, expectError, openTestDatabase, setupTestApp, type TestContext, testConfig } from '../../test/helpers.js';
import { inlineDocument } from '../../test/support/openapi.js';
import { buildApp } from '../app.js';
import { openDatabase } from '../db/database.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp({ bodyLimit: 64 * 1024 });
});
afterAll(() => t.close());

describe('the error envelope for framework-level failures', () => {
  it('404 for an unknown route, with or without credentials', async () => {
    const store = await t.newStore();
    expectError(await t.call(store, 'GET', '/no-such-thing'), 404, 'NOT_FOUND');
    expectError(await t.call(null, 'GET', '/api/v2/products'), 404, 'NOT_FOUND');
  });

  it('405 with Allow for a known path and a wrong method', async () => {
    const store = await t.newStore();
    const res = await t.call(store, 'PUT', '/attribute-sets');
    expectError(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    const one = await t.call(store, 'POST', '/attribute-sets/0123456789abcdef01234567');
    expect(one.headers.allow).toBe('GET, HEAD, PATCH, DELETE');
  });

  it('400 INVALID_JSON for a body that is not JSON', async () => {
    const store = await t.newStore();
    const res = await t.call(store, 'POST', '/attribute-sets', '{"name": ', { 'content-type': 'application/json' });
    expectError(res, 400, 'INVALID_JSON');
  });

  it('415 for a body that is not application/json', async () => {
    const store = await t.newStore();
    expectError(
      await t.call(store, 'POST', '/attribute-sets', 'name=x', { 'content-type': 'application/x-www-form-urlencoded' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expectError(await t.call(store, 'POST', '/attribute-sets', 'name', { 'content-type': 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('413 for a body over the limit', async () => {
    const store = await t.newStore();
    const res = await t.call(store, 'POST', '/attribute-sets', { name: 'x'.repeat(70 * 1024) });
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('400 for wrong JSON types: strings are not numbers, objects are required', async () => {
    const store = await t.newStore();
    expectError(await t.call(store, 'POST', '/attribute-sets', [1, 2]), 400, 'VALIDATION_ERROR');
    expectError(await t.call(store, 'POST', '/attribute-sets', 'null', { 'content-type': 'application/json' }), 400, 'VALIDATION_ERROR');
    expectError(await t.call(store, 'POST', '/attributes', { name: 'x', values: 'S' }), 400, 'VALIDATION_ERROR');
    expectError(await t.call(store, 'POST', '/attribute-sets', { name: ['x'] }), 400, 'VALIDATION_ERROR');
  });
});

describe('request ids', () => {
  it('echoes a sane X-Request-Id and generates one otherwise', async () => {
    const mine = await t.call(null, 'GET', '/healthz', undefined, { 'x-request-id': 'abc-123' });
    expect(mine.headers['x-request-id']).toBe('abc-123');
    const insane = await t.call(null, 'GET', '/healthz', undefined, { 'x-request-id': 'a b<script>' });
    expect(insane.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const error = await t.call(null, 'GET', '/api/v1/attribute-sets');
    expect(error.headers['x-request-id']).toBeDefined();
  });
});

describe('health and docs', () => {
  it('serves /healthz, /readyz, the OpenAPI document and the docs page without auth', async () => {
    expect((await t.call(null, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await t.call(null, 'GET', '/readyz')).status).toBe(200);
    const doc = await t.call(null, 'GET', '/api/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    for (const path of ['/api/v1/auth', '/api/v1/api-keys', '/api/v1/attribute-sets/{id}', '/api/v1/attributes']) {
      expect(inlineDocument(doc.body).paths[path], path).toBeDefined();
    }
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
  });
});

describe('failures inside the service', () => {
  it('500 carries no stack, SQL or message of the bug', async () => {
    const { database, dataDir, cleanup } = await openTestDatabase();
    const app = await buildApp({ config: testConfig(dataDir), database });
    app.get('/boom', { config: { public: true } }, async () => {
      throw new Error('select secret from internals at /srv/app.ts:12');
    });
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ success: false, error: { code: 'INTERNAL_ERROR', message: 'Internal server error', details: [] } });
    await app.close();
    await database.close();
    cleanup();
  });

  it('503 while the database is unreachable', async () => {
    const { database, dataDir, cleanup } = await openTestDatabase();
    // PGlite: its worker has stopped; PostgreSQL: nothing listens where the pool connects.
    const unreachable =
      engine === 'pglite' ? database : await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:1/none', dataDir });
    await database.close();
    const app = await buildApp({ config: testConfig(dataDir), database: unreachable });
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().error.code).toBe('SERVICE_UNAVAILABLE');
    const apiCall = await app.inject({
      method: 'GET',
      url: '/api/v1/api-keys',
      headers: { authorization: 'Bearer sfk_0123456789012345678901234567890123456789' },
    });
    expect(apiCall.statusCode).toBe(503);
    await app.close();
    await unreachable.close();
    cleanup();
  });
});

describe('the per-credential rate limit', () => {
  it('allows a burst of twice the rate, then 429 with Retry-After and RateLimit headers', async () => {
    const limited = await setupTestApp({ rateLimit: 2 });
    const store = await limited.newStore();
    const statuses: number[] = [];
    let last = await limited.call(store, 'GET', '/attribute-sets');
    expect(last.headers['ratelimit-limit']).toBe('4');
    expect(last.headers['ratelimit-remaining']).toBe('3');
    expect(last.headers['ratelimit-reset']).toBeDefined();
    for (let i = 0; i < 4; i++) {
      last = await limited.call(store, 'GET', '/attribute-sets');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expectError(last, 429, 'RATE_LIMITED');
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    const otherStore = await limited.newStore();
    expect((await limited.call(otherStore, 'GET', '/attribute-sets')).status).toBe(200);
    await limited.close();
  });
});
