import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { withTx } from '../db/transaction.js';
import { newId } from '../shared/ids.js';
import { executeOnce } from './idempotency.js';
import { tryLockKey } from './idempotency.sql.js';
import { purgeExpiredKeys } from './purge.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

/** The raw response: replays are compared as text, byte for byte. */
async function send(store: TestStore, method: string, url: string, body: unknown, key?: string) {
  const response = await t.app.inject({
    method: method as 'POST',
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${store.token}`, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return { status: response.statusCode, text: response.body, headers: response.headers, json: () => JSON.parse(response.body) };
}

async function productCount(store: TestStore): Promise<number> {
  return (await t.call(store, 'GET', '/products')).body.pagination.total;
}

async function recordsOf(store: TestStore) {
  return t.database.db.selectFrom('idempotency_keys').selectAll().where('store_id', '=', store.id).execute();
}

const key = () => `key-${newId()}`;

describe('idempotency keys: replay', () => {
  it('replays the recorded status and body byte for byte, marked, without a second write', async () => {
    const store = await t.newStore();
    const k = key();
    const first = await send(store, 'POST', '/products', { title: 'Retry me' }, k);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await send(store, 'POST', '/products', { title: 'Retry me' }, k);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.text).toBe(first.text);
    expect(await productCount(store)).toBe(1);
  });

  it('a retry with a fresh credential of the same store is still a retry (keys belong to the store)', async () => {
    const store = await t.newStore();
    const k = key();
    const first = await send(store, 'POST', '/products', { title: 'Any token' }, k);
    const apiKey = (await t.call(store, 'POST', '/api-keys', { name: 'sync', scopes: ['products:write', 'products:read'] })).body.data.key;
    const again = await send({ ...store, token: apiKey }, 'POST', '/products', { title: 'Any token' }, k);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
  });

  it('records a 404 (replayed) but neither a validation error nor a duplicate (the client may fix and retry)', async () => {
    const store = await t.newStore();
    const missing = `/products/${newId()}`;
    const k = key();
    const notFound = await send(store, 'PATCH', missing, { title: 'x' }, k);
    expect(notFound.status).toBe(404);
    const replayed = await send(store, 'PATCH', missing, { title: 'x' }, k);
    expect(replayed.status).toBe(404);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.text).toBe(notFound.text);

    await t.call(store, 'POST', '/products', { title: 'Taken', handle: 'taken' });
    const k2 = key();
    expectError(
      await t.call(store, 'POST', '/products', { title: 'T', handle: 'taken' }, { 'idempotency-key': k2 }),
      400,
      'DUPLICATE_VALUE',
    );
    expectError(await t.call(store, 'POST', '/products', { title: 5 }, { 'idempotency-key': k2 }), 400, 'VALIDATION_ERROR');
    const fixed = await send(store, 'POST', '/products', { title: 'T', handle: 'free' }, k2);
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    expect((await recordsOf(store)).map((r) => r.status).sort()).toEqual([201, 404]);
  });
});

describe('idempotency keys: refusals', () => {
  it('the same key on a different body, path or method is 422 and changes nothing', async () => {
    const store = await t.newStore();
    const k = key();
    const created = (await send(store, 'POST', '/products', { title: 'Original' }, k)).json().data;
    expectError(await t.call(store, 'POST', '/products', { title: 'Other' }, { 'idempotency-key': k }), 422, 'IDEMPOTENCY_KEY_REUSED');
    expectError(
      // (lenient: strict handling would refuse the unknown parameter before the key is looked at)
      await t.call(store, 'POST', '/products?x=1', { title: 'Original' }, { 'idempotency-key': k, prefer: 'handling=lenient' }),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
    expectError(
      await t.call(store, 'PATCH', `/products/${created.id}`, { title: 'Original' }, { 'idempotency-key': k }),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
    expect(await productCount(store)).toBe(1);
    expect((await t.call(store, 'GET', `/products/${created.id}`)).body.data.title).toBe('Original');
  });

  it('a completed key is checked before the body: an invalid body with it is 422, not 400', async () => {
    const store = await t.newStore();
    const k = key();
    await send(store, 'POST', '/products', { title: 'Valid' }, k);
    expectError(await t.call(store, 'POST', '/products', { title: 42 }, { 'idempotency-key': k }), 422, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('a malformed key is 400 naming the header', async () => {
    const store = await t.newStore();
    for (const bad of ['', 'has space', 'x'.repeat(256), 'tab\there', 'caf\u00e9']) {
      const error = expectError(
        await t.call(store, 'POST', '/products', { title: 'K' }, { 'idempotency-key': bad }),
        400,
        'VALIDATION_ERROR',
      );
      expect(error.details).toEqual([expect.objectContaining({ field: 'Idempotency-Key', in: 'header' })]);
    }
    expect((await send(store, 'POST', '/products', { title: 'K' }, `~${'x'.repeat(253)}!`)).status).toBe(201);
    expect(await productCount(store)).toBe(1);
  });

  it('keys are per store: the same key in two stores makes two records', async () => {
    const [a, b] = [await t.newStore(), await t.newStore()];
    const k = key();
    const inA = await send(a, 'POST', '/products', { title: 'Shared key' }, k);
    const inB = await send(b, 'POST', '/products', { title: 'Shared key' }, k);
    expect([inA.status, inB.status]).toEqual([201, 201]);
    expect(inB.headers['idempotent-replayed']).toBeUndefined();
    expect(inA.json().data.id).not.toBe(inB.json().data.id);
    expect([await productCount(a), await productCount(b)]).toEqual([1, 1]);
  });

  it('POST /auth takes no key: a header there is ignored', async () => {
    const store = await t.newStore();
    const body = { storeSlug: store.slug, email: store.email, password: store.password };
    const res = await t.call(null, 'POST', '/auth', body, { 'idempotency-key': 'not checked here' });
    expect(res.status).toBe(200);
  });
});

describe('idempotency keys: expiry', () => {
  it('an expired key is free again, and the purge deletes it', async () => {
    const store = await t.newStore();
    const k = key();
    await send(store, 'POST', '/products', { title: 'Once' }, k);
    await t.database.db
      .updateTable('idempotency_keys')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where('store_id', '=', store.id)
      .execute();
    const again = await send(store, 'POST', '/products', { title: 'Once' }, k);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await productCount(store)).toBe(2);
    const [record] = await recordsOf(store);
    expect(record.expires_at.getTime()).toBeGreaterThan(Date.now() + (t.config.idempotencyTtl - 60) * 1000);

    await t.database.db
      .updateTable('idempotency_keys')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where('store_id', '=', store.id)
      .execute();
    expect(await purgeExpiredKeys(t.database.db)).toBeGreaterThanOrEqual(1);
    expect(await recordsOf(store)).toEqual([]);
  });
});

describe('idempotency keys: concurrency and atomicity', () => {
  it('10 concurrent identical requests with one key create exactly one record', async () => {
    const store = await t.newStore();
    const k = key();
    const replies = await Promise.all(Array.from({ length: 10 }, () => send(store, 'POST', '/products', { title: 'Racing' }, k)));
    const created = replies.filter((r) => r.status === 201);
    const busy = replies.filter((r) => r.status === 409);
    expect(created.length + busy.length).toBe(10);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.text)).size).toBe(1);
    expect(created.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    for (const reply of busy) {
      expect(reply.json().error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      expect(reply.headers['retry-after']).toBe('1');
    }
    expect(await productCount(store)).toBe(1);
    expect(await recordsOf(store)).toHaveLength(1);
  });

  it.runIf(engine === 'postgres')('a key whose first request is still running is 409 with Retry-After: 1', async () => {
    const store = await t.newStore();
    const k = key();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = t.database.db.transaction().execute(async (trx) => {
      expect(await tryLockKey(trx, store.id, k)).toBe(true);
      locked();
      await held;
    });
    await lockTaken;
    const busy = await t.call(store, 'POST', '/products', { title: 'Busy' }, { 'idempotency-key': k });
    release();
    await holder;
    expectError(busy, 409, 'IDEMPOTENCY_KEY_IN_USE');
    expect(busy.headers['retry-after']).toBe('1');
    expect(await productCount(store)).toBe(0);
    expect((await send(store, 'POST', '/products', { title: 'Busy' }, k)).status).toBe(201);
  });

  it('the record commits with the write: a transaction that fails after both leaves neither', async () => {
    const store = await t.newStore();
    const claim = { key: key(), fingerprint: 'f', method: 'POST', path: '/api/v1/admins' };
    const adminId = newId();
    const crash = withTx(t.database.db, async (trx) => {
      await executeOnce(
        trx,
        (trx) =>
          trx
            .insertInto('admins')
            .values({ store_id: store.id, id: adminId, email: `${adminId}@x.test`, password_hash: 'h' })
            .execute(),
        { storeId: store.id, claim, ttlSeconds: 60, record: () => ({ status: 201, body: '{}', etag: null }), states: [] },
      );
      throw new Error('the process died before COMMIT');
    });
    await expect(crash).rejects.toThrow('died');
    expect(await recordsOf(store)).toEqual([]);
    expect(
      await t.database.db.selectFrom('admins').select('id').where('store_id', '=', store.id).where('id', '=', adminId).execute(),
    ).toEqual([]);
  });
});

describe('idempotency keys: no secret in a record (CONTRACT §9.1)', () => {
  it('a replay of POST /api-keys answers 201 with the same id, name and scopes and key: null; the record holds no key', async () => {
    const store = await t.newStore();
    const k = key();
    const body = { name: 'partner', scopes: ['products:read'] };
    const first = await send(store, 'POST', '/api-keys', body, k);
    expect(first.status).toBe(201);
    const created = first.json().data;
    expect(created.key).toMatch(/^sfk_/);
    const [record] = await recordsOf(store);
    expect(record.body).not.toContain(created.key);
    expect(JSON.parse(record.body).data.key).toBeNull();

    const again = await send(store, 'POST', '/api-keys', body, k);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const { key: replayedKey, ...rest } = again.json().data;
    expect(replayedKey).toBeNull();
    expect(rest).toEqual({ id: created.id, name: 'partner', scopes: ['products:read'], createdAt: created.createdAt });
    // one key was created, and it works
    expect((await t.call(store, 'GET', '/api-keys')).body.data).toHaveLength(1);
    expect((await t.call(created.key, 'GET', '/products')).status).toBe(200);
  });
});
