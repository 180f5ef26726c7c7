import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { validatorCompiler } from '../shared/index.js';
import { lazySchemas } from './lazy-schemas.js';

/**
 * Routes' validators and serializers are compiled on first use (lazy-schemas.ts; docs/architecture.md): none at
 * start, each once when a request needs it, the same answers as compiled ones, and every route's compile.
 */

const schemas = lazySchemas(validatorCompiler);
let t: TestContext;
let store: TestStore;
beforeAll(async () => {
  t = await setupTestApp({}, undefined, { schemas });
  store = await t.newStore();
});
afterAll(() => t.close());

describe('routes schemas compiled on first use', () => {
  it('compiles none while the app starts, though every route has some waiting', () => {
    // newStore() sends no request: nothing has asked for a validator or a serializer yet
    expect(schemas.counts()).toEqual({ compiled: 0, pending: expect.any(Number) });
    expect(schemas.counts().pending).toBeGreaterThan(200);
  });

  it('validates and serializes through them as compiled ones do, compiling only what was used', async () => {
    const refused = expectError(await t.call(store, 'POST', '/api-keys', { name: '', scopes: ['nope'] }), 400, 'VALIDATION_ERROR');
    expect(refused.details.map((d: { field: string }) => d.field).sort()).toEqual(['name', 'scopes[0]']);
    const created = await t.call(store, 'POST', '/api-keys', { name: 'sync', scopes: ['products:read'] });
    expect(created.status).toBe(201);
    const listed = await t.call(store, 'GET', '/api-keys');
    expect(listed.status).toBe(200);
    // the serializer writes the declared fields only: the key's secret is shown once, by the POST
    expect(listed.body.data).toEqual([expect.not.objectContaining({ key: expect.anything() })]);
    expect(listed.body.data[0]).toMatchObject({ name: 'sync', scopes: ['products:read'] });
    // query strings are coerced (a number from text) and refused as before
    expect((await t.call(store, 'GET', '/customers?limit=2')).status).toBe(200);
    expectError(await t.call(store, 'GET', '/customers?limit=two'), 400, 'VALIDATION_ERROR');
    const { compiled, pending } = schemas.counts();
    expect(compiled).toBeGreaterThan(0);
    expect(compiled).toBeLessThan(20);
    expect(pending).toBeGreaterThan(200);
  });

  it('compiles every route’s validators and serializers (a schema Ajv or fast-json-stringify refuses fails here)', () => {
    schemas.compileAll();
    expect(schemas.counts().pending).toBe(0);
  });
});
