import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext } from '../../test/helpers.js';
import { MAX_JSON_DEPTH } from '../shared/json-depth.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

/** A product body with a field `depth` levels deep, counting the body itself as level 1. */
const deepBody = (depth: number) => `{"title":"Deep","tags":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
const json = { 'content-type': 'application/json' };

describe('JSON bodies nested deeper than 64 levels (CONTRACT §2)', () => {
  it('400 VALIDATION_ERROR naming the body, whatever the headers, on every route', async () => {
    const store = await t.newStore();
    const variants: Record<string, string>[] = [
      {},
      { 'idempotency-key': 'deep-1' },
      { prefer: 'handling=strict' },
      { prefer: 'handling=lenient', 'idempotency-key': 'deep-2' },
      { 'content-type': 'application/json; charset=utf-8' },
    ];
    for (const headers of variants) {
      const error = expectError(
        await t.call(store, 'POST', '/products', deepBody(5_000), { ...json, ...headers }),
        400,
        'VALIDATION_ERROR',
      );
      expect(error.details).toEqual([expect.objectContaining({ field: 'body', in: 'body' })]);
    }
    const created = await t.call(store, 'POST', '/products', { title: 'Shallow' });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expectError(
      await t.call(store, 'PATCH', `/products/${id}`, deepBody(65), { ...json, 'idempotency-key': 'deep-3' }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await t.call(store, 'POST', '/webhooks', deepBody(200), json), 400, 'VALIDATION_ERROR');
    expectError(await t.call(null, 'POST', '/auth', deepBody(200), json), 400, 'VALIDATION_ERROR');
    // nothing was written by the refused requests
    expect((await t.call(store, 'GET', '/products')).body.pagination.total).toBe(1);
    const keys = await t.database.db.selectFrom('idempotency_keys').select('key').where('store_id', '=', store.id).execute();
    expect(keys).toEqual([]);
  });

  it('64 levels are accepted as far as depth goes (the schema judges the rest)', async () => {
    const store = await t.newStore();
    const res = await t.call(store, 'POST', '/products', deepBody(MAX_JSON_DEPTH), json);
    const fields = res.status === 400 ? expectError(res, 400, 'VALIDATION_ERROR').details.map((detail) => detail.field) : [];
    expect(fields).not.toContain('body');
    expect(fields.length > 0 || res.status === 201).toBe(true);
  });
});
