import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../test/helpers.js';
import { type AppSetup, newAdmin, openAppSetup } from '../../test/support/auth.fixtures.js';
import type { App } from '../http/context.js';

// CONTRACT §4: after 60 requests with an invalid bearer credential from one address in a minute, further
// invalid ones from that address get 429 until Retry-After; valid credentials keep working there.

let setup: AppSetup;
let app: App;
let apiKeyLookups = 0;
// Counts every query on api_keys the app sends.
const counting: KyselyPlugin = {
  transformQuery(args) {
    if (JSON.stringify(args.node).includes('"api_keys"')) apiKeyLookups++;
    return args.node;
  },
  transformResult: async (args) => args.result,
};
beforeAll(async () => {
  setup = await openAppSetup();
  app = await setup.start({ database: { ...setup.database, db: setup.database.db.withPlugin(counting) } });
});
afterAll(() => setup.close());

const randomKey = () =>
  `sfk_${randomBytes(30)
    .toString('base64')
    .replace(/[^0-9A-Za-z]/g, '')
    .slice(0, 36)
    .padEnd(36, 'a')}`;

function get(credential: string, remoteAddress: string) {
  return app
    .inject({ method: 'GET', url: '/api/v1/attribute-sets', headers: { authorization: `Bearer ${credential}` }, remoteAddress })
    .then((res) => ({ status: res.statusCode, body: res.json(), headers: res.headers }));
}

describe('invalid bearer credentials', () => {
  it('block an address after 60 a minute, without database work, while valid credentials keep working', async () => {
    const store = await newAdmin(setup);
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      headers: { authorization: `Bearer ${store.token}` },
      payload: { name: 'sync', scopes: ['*'] },
    });
    const key = created.json().data.key as string;
    expect((await get(key, '10.20.0.1')).status).toBe(200);
    const address = '10.20.0.2';
    apiKeyLookups = 0;
    for (let i = 0; i < 60; i++) expectError(await get(randomKey(), address), 401, 'UNAUTHORIZED');
    expect(apiKeyLookups).toBe(60);

    const statuses: number[] = [];
    for (let i = 0; i < 240; i++) statuses.push((await get(randomKey(), address)).status);
    expect(new Set(statuses)).toEqual(new Set([429]));
    expect(apiKeyLookups).toBe(60);

    const blocked = await get('not-a-token', address);
    expectError(blocked, 429, 'RATE_LIMITED');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await get(key, address)).status).toBe(200);
    expect((await get(store.token, address)).status).toBe(200);
    expectError(await get(randomKey(), '10.20.0.3'), 401, 'UNAUTHORIZED');
  });

  it('count forged, expired and malformed tokens as well as keys', async () => {
    const store = await newAdmin(setup);
    const address = '10.21.0.1';
    const forged = await new SignJWT({ store: store.storeId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('x')
      .setIssuer('storefront')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-00'));
    const credentials = [forged, 'garbage', randomKey()];
    for (let i = 0; i < 60; i++) expectError(await get(credentials[i % 3], address), 401, 'UNAUTHORIZED');
    const headers = { authorization: 'Basic abc' };
    const basic = await app.inject({ method: 'GET', url: '/api/v1/attribute-sets', headers, remoteAddress: address });
    expect(basic.statusCode).toBe(429);
    expect((await get(store.token, address)).status).toBe(200);
  });

  it('do not count a missing credential', async () => {
    const address = '10.22.0.1';
    for (let i = 0; i < 61; i++) {
      const res = await app.inject({ method: 'GET', url: '/api/v1/attribute-sets', remoteAddress: address });
      expect(res.statusCode).toBe(401);
    }
  });
});
