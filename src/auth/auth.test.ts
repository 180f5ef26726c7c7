import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

let address = 0;
/** Each login test comes from its own client address, so the per-address limit never couples tests. */
function login(body: object, remoteAddress = `10.1.0.${++address}`) {
  return t.app.inject({ method: 'POST', url: '/api/v1/auth', payload: body, remoteAddress }).then((res) => ({
    status: res.statusCode,
    body: res.json(),
    headers: res.headers,
  }));
}

const credentials = (store: TestStore, password = store.password) => ({ storeSlug: store.slug, email: store.email, password });

describe('POST /auth', () => {
  // Throttling and the body limit: src/auth/throttle.test.ts
  it('exchanges admin credentials for a bearer JWT that works on the API', async () => {
    const store = await t.newStore();
    const res = await login(credentials(store));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { accessToken: expect.any(String), tokenType: 'Bearer', expiresIn: 3600 } });
    const list = await t.call(res.body.data.accessToken, 'GET', '/attribute-sets');
    expect(list.status).toBe(200);
  });

  it('matches the email case-insensitively', async () => {
    const store = await t.newStore();
    expect((await login({ ...credentials(store), email: store.email.toUpperCase() })).status).toBe(200);
  });

  it('gives one 401 for a wrong store, email or password', async () => {
    const store = await t.newStore();
    const attempts = [
      { ...credentials(store), storeSlug: 'no-such-store' },
      { ...credentials(store), email: 'nobody@example.test' },
      credentials(store, 'wrong-password'),
    ];
    const messages = new Set<string>();
    for (const attempt of attempts) {
      const res = await login(attempt);
      messages.add(expectError(res, 401, 'UNAUTHORIZED').message);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    expect(messages.size).toBe(1);
  });

  it('validates the body', async () => {
    const error = expectError(await login({ storeSlug: 'x', password: 5 }), 400, 'VALIDATION_ERROR');
    expect(error.details.map((d) => d.field).sort()).toEqual(['email', 'password']);
  });
});

describe('bearer credentials', () => {
  it('rejects missing, malformed, forged and expired credentials with 401', async () => {
    const store = await t.newStore();
    const forged = await new SignJWT({ store: store.id })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('x')
      .setIssuer('storefront')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-00'));
    const expired = await new SignJWT({ store: store.id })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('x')
      .setIssuer('storefront')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ store: store.id, sub: 'x' })).toString('base64url')}.`;
    for (const credential of [null, 'garbage', forged, expired, unsigned, 'sfk_short', `sfk_${'a'.repeat(40)}`]) {
      const res = await t.call(credential, 'GET', '/attribute-sets');
      expectError(res, 401, 'UNAUTHORIZED');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="storefront"/);
    }
    const basic = await t.call(null, 'GET', '/attribute-sets', undefined, { authorization: `Basic ${store.token}` });
    expectError(basic, 401, 'UNAUTHORIZED');
    expect(basic.headers['www-authenticate']).toMatch(/^Bearer realm="storefront", error="invalid_request"/);
  });
});

describe('access tokens (CONTRACT §4)', () => {
  const sign = (claims: object) => new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256' }).setIssuer('storefront');

  it('are refused without an expiry', async () => {
    const store = await t.newStore();
    const admin = (await t.database.db.selectFrom('admins').select('id').where('store_id', '=', store.id).executeTakeFirstOrThrow()).id;
    const forever = await sign({ store: store.id }).setSubject(admin).sign(new TextEncoder().encode(t.config.jwtSecret));
    const res = await t.call(forever, 'GET', '/attribute-sets');
    expect(expectError(res, 401, 'UNAUTHORIZED').message).toBe('Malformed bearer credential');
    const lasting = await sign({ store: store.id })
      .setSubject(admin)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    expect((await t.call(lasting, 'GET', '/attribute-sets')).status).toBe(200);
  });

  it('are refused once their admin no longer exists, for reads and writes', async () => {
    const store = await t.newStore();
    await t.database.db.deleteFrom('admins').where('store_id', '=', store.id).execute();
    for (const [method, body] of [['GET'], ['POST', { name: 'x' }]] as const) {
      const res = await t.call(store, method, '/attribute-sets', body);
      expect(expectError(res, 401, 'UNAUTHORIZED').message).toBe('Access token of an admin or store that no longer exists');
      expect(res.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    }
  });

  it('are refused once their store no longer exists, for reads and writes', async () => {
    const store = await t.newStore();
    await t.database.db.deleteFrom('stores').where('id', '=', store.id).execute();
    const gone = 'Access token of an admin or store that no longer exists';
    expect(expectError(await t.call(store, 'GET', '/attribute-sets'), 401, 'UNAUTHORIZED').message).toBe(gone);
    expect(expectError(await t.call(store, 'POST', '/attribute-sets', { name: 'x' }), 401, 'UNAUTHORIZED').message).toBe(gone);
  });

  it('say why a credential is refused, in the message and in WWW-Authenticate (RFC 6750)', async () => {
    const store = await t.newStore();
    const key = (await t.call(store, 'POST', '/api-keys', { name: 'k', scopes: ['*'] })).body.data;
    await t.call(store, 'DELETE', `/api-keys/${key.id}`);
    const expired = await sign({ store: store.id })
      .setSubject('x')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    const forged = await sign({ store: store.id })
      .setSubject('x')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-00'));
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ store: store.id, sub: 'x', iss: 'storefront' })).toString('base64url')}.`;
    const malformedHeader = 'Malformed Authorization header: expected "Bearer <access token or API key>"';
    const cases: [Record<string, string>, string, string | null][] = [
      [{}, 'Missing bearer credential', null],
      [{ authorization: `Basic ${store.token}` }, malformedHeader, 'invalid_request'],
      [{ authorization: 'Bearer' }, malformedHeader, 'invalid_request'],
      [{ authorization: 'Bearer garbage' }, 'Malformed bearer credential', 'invalid_token'],
      [{ authorization: 'Bearer sfk_short' }, 'Malformed bearer credential', 'invalid_token'],
      [{ authorization: `Bearer ${expired}` }, 'Expired access token', 'invalid_token'],
      [{ authorization: `Bearer ${forged}` }, 'Invalid access token signature', 'invalid_token'],
      [{ authorization: `Bearer ${unsigned}` }, 'Invalid access token signature', 'invalid_token'],
      [{ authorization: `Bearer ${key.key}` }, 'Revoked or unknown API key', 'invalid_token'],
      [{ authorization: `Bearer sfk_${'a'.repeat(40)}` }, 'Revoked or unknown API key', 'invalid_token'],
    ];
    for (const [headers, message, error] of cases) {
      const res = await t.call(null, 'GET', '/attribute-sets', undefined, headers);
      expect(expectError(res, 401, 'UNAUTHORIZED').message).toBe(message);
      const challenge = error
        ? `Bearer realm="storefront", error="${error}", error_description="${message.replaceAll('"', "'")}"`
        : 'Bearer realm="storefront"';
      expect(res.headers['www-authenticate']).toBe(challenge);
    }
  });
});

describe('API keys', () => {
  async function createKey(store: TestStore, scopes: string[]) {
    const res = await t.call(store, 'POST', '/api-keys', { name: 'sync', scopes });
    expect(res.status).toBe(201);
    return res.body.data as { id: string; key: string; scopes: string[] };
  }

  it('are shown once, listed without the key, and work as bearer credentials', async () => {
    const store = await t.newStore();
    const created = await createKey(store, ['attributes:read', 'attributes:write']);
    expect(created.key).toMatch(/^sfk_[0-9A-Za-z]{32,}$/);
    expect(created.scopes).toEqual(['attributes:read', 'attributes:write']);
    const list = await t.call(store, 'GET', '/api-keys');
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ id: created.id, name: 'sync', revokedAt: null });
    expect(JSON.stringify(list.body)).not.toContain(created.key);
    expect((await t.call(created.key, 'POST', '/attribute-sets', { name: 'Via key' })).status).toBe(201);
  });

  it('enforce scopes with 403', async () => {
    const store = await t.newStore();
    const readOnly = await createKey(store, ['attributes:read']);
    expect((await t.call(readOnly.key, 'GET', '/attribute-sets')).status).toBe(200);
    const error = expectError(await t.call(readOnly.key, 'POST', '/attribute-sets', { name: 'x' }), 403, 'FORBIDDEN');
    expect(error.message).toContain('attributes:write');
    const other = await createKey(store, ['orders:read']);
    expectError(await t.call(other.key, 'GET', '/attributes'), 403, 'FORBIDDEN');
    const all = await createKey(store, ['*']);
    expect((await t.call(all.key, 'POST', '/attributes', { name: 'Color' })).status).toBe(201);
  });

  it('cannot manage keys, only an access token can', async () => {
    const store = await t.newStore();
    const key = await createKey(store, ['*']);
    expectError(await t.call(key.key, 'GET', '/api-keys'), 403, 'FORBIDDEN');
    expectError(await t.call(key.key, 'POST', '/api-keys', { name: 'x', scopes: ['*'] }), 403, 'FORBIDDEN');
    expectError(await t.call(key.key, 'DELETE', `/api-keys/${key.id}`), 403, 'FORBIDDEN');
  });

  it('are revoked at once, and stay in their store', async () => {
    const store = await t.newStore();
    const other = await t.newStore();
    const key = await createKey(store, ['*']);
    expectError(await t.call(other, 'DELETE', `/api-keys/${key.id}`), 404, 'NOT_FOUND');
    expect((await t.call(other, 'GET', '/api-keys')).body.data).toEqual([]);
    const revoked = await t.call(store, 'DELETE', `/api-keys/${key.id}`);
    expect(revoked.body).toEqual({ success: true, data: { id: key.id } });
    expectError(await t.call(key.key, 'GET', '/attribute-sets'), 401, 'UNAUTHORIZED');
    expectError(await t.call(store, 'DELETE', `/api-keys/${key.id}`), 404, 'NOT_FOUND');
    expect((await t.call(store, 'GET', '/api-keys')).body.data[0].revokedAt).not.toBeNull();
  });

  it('see only their own store', async () => {
    const a = await t.newStore();
    const b = await t.newStore();
    const keyA = await createKey(a, ['*']);
    const setB = (await t.call(b, 'POST', '/attribute-sets', { name: 'B only' })).body.data;
    expectError(await t.call(keyA.key, 'GET', `/attribute-sets/${setB.id}`), 404, 'NOT_FOUND');
    expect((await t.call(keyA.key, 'GET', '/attribute-sets?search=B%20only')).body.data).toEqual([]);
  });

  it('reject unknown scopes and empty names', async () => {
    const store = await t.newStore();
    const error = expectError(await t.call(store, 'POST', '/api-keys', { name: '', scopes: ['everything'] }), 400, 'VALIDATION_ERROR');
    expect(error.details.map((d) => d.field).sort()).toEqual(['name', 'scopes[0]']);
    expectError(await t.call(store, 'POST', '/api-keys', { name: 'x', scopes: [] }), 400, 'VALIDATION_ERROR');
  });
});
