import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { inlineDocument } from '../../test/support/openapi.js';
import { newId } from '../shared/ids.js';

/**
 * Guards of the one write door: every write route of the OpenAPI document takes part in idempotency
 * (so it goes through sendWrite), and every PATCH/DELETE of a versioned record enforces If-Match (so it
 * passes sendWrite a `current` loader). The PENDING lists name routes not yet there; a route that gets
 * there must leave its list (the test says so), so the lists only ever shrink.
 */

const PENDING_SEND_WRITE = new Set<string>([]);

const PENDING_IF_MATCH = new Set<string>([]);

/**
 * Deletes of something that is not a versioned record, so If-Match has nothing to match: a webhook's running
 * replay is a process with a cursor, not a record a client read and holds a version of (docs/webhooks.md).
 */
const UNVERSIONED_DELETES = new Set<string>(['DELETE /webhooks/{id}/replay']);

const order = { cartItems: [{ productId: 'p', title: 'T', price: 1, quantity: 1 }], subTotal: 1, totalAmount: 1 };

/** A valid body for each write without path parameters (the others are sent to a missing record: a recorded 404). */
const CREATE_BODIES: Record<string, object> = {
  '/api-keys': { name: 'coverage', scopes: ['*'] },
  '/attribute-sets': { name: 'Coverage' },
  '/attributes': { name: 'Coverage' },
  '/collections': { title: 'Coverage' },
  '/customers': { userName: 'coverage', password: '12345678' },
  '/locations': { name: 'Coverage' },
  '/orders': order,
  '/price-lists': { name: 'Coverage', currency: 'EUR' },
  // to a missing list: a recorded 404
  '/price-lists/{id}/prices/delete': { items: [{ productId: newId() }] },
  '/products': { title: 'Coverage' },
  '/webhooks': { url: 'https://hooks.example.test/coverage', events: ['*'] },
  // A replay needs a range (400 otherwise, which records nothing); to a missing webhook it is a recorded 404.
  '/webhooks/{id}/replay': { since: '2026-01-01T00:00:00.000Z' },
};

/** Writes whose valid body names records of the store: made for it (a level names a product and a location). */
const MADE_BODIES: Record<string, (store: TestStore) => Promise<object>> = {
  '/inventory-levels/set': async (store) => ({ items: [{ ...(await levelOf(store)), available: 1 }] }),
  '/inventory-levels/adjust': async (store) => ({ items: [{ ...(await levelOf(store)), delta: 1 }] }),
};

async function levelOf(store: TestStore) {
  const product = (await t.call(store, 'POST', '/products', { title: `Level ${newId()}` })).body.data;
  const location = (await t.call(store, 'GET', '/locations')).body.data[0];
  return { productId: product.id, locationId: location.id };
}

/** Writes whose body is not JSON: the URL they need (with its query), the body and its content type. */
const RAW_WRITES: Record<string, { url: string; body: string; contentType: string }> = {
  '/imports': {
    url: '/imports?resource=products',
    body: '{"title":"Coverage","handle":"coverage"}\n',
    contentType: 'application/x-ndjson',
  },
};

let t: TestContext;
let writes: { method: string; path: string }[];
type Operation = { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> };
let paths: Record<string, Record<string, Operation>>;
beforeAll(async () => {
  t = await setupTestApp();
  paths = inlineDocument((await t.call(null, 'GET', '/openapi.json')).body).paths;
  writes = Object.entries(paths).flatMap(([path, operations]) =>
    Object.keys(operations)
      .map((method) => method.toUpperCase())
      .filter((method) => ['POST', 'PATCH', 'DELETE'].includes(method) && path !== '/api/v1/auth')
      .map((method) => ({ method, path: path.replace('/api/v1', '') })),
  );
});
afterAll(() => t.close());

const named = (write: { method: string; path: string }) => `${write.method} ${write.path}`;

/** Whether the OpenAPI document tells clients this write takes If-Match (a header and a 412). */
function documentsIfMatch(write: { method: string; path: string }): boolean {
  const operation = paths[`/api/v1${write.path}`][write.method.toLowerCase()];
  const header = operation.parameters?.some((p) => p.in === 'header' && p.name === 'if-match') ?? false;
  return header && '412' in operation.responses;
}

describe('every write takes part in idempotency', () => {
  it('a repeated keyed request replays (or the route is listed as pending)', async () => {
    const store = await t.newStore();
    const wrong: string[] = [];
    for (const write of writes) {
      const raw = RAW_WRITES[write.path];
      const url = raw?.url ?? write.path.replace(/\{\w+\}/g, () => newId());
      const made = MADE_BODIES[write.path];
      const body = raw?.body ?? (write.method === 'DELETE' ? undefined : made ? await made(store) : (CREATE_BODIES[write.path] ?? {}));
      const headers = { 'idempotency-key': `coverage-${newId()}`, ...(raw ? { 'content-type': raw.contentType } : {}) };
      const first = await t.call(store, write.method, url, body, headers);
      const again = await t.call(store, write.method, url, body, headers);
      const replayed = again.headers['idempotent-replayed'] === 'true';
      if (replayed === PENDING_SEND_WRITE.has(named(write))) {
        wrong.push(`${named(write)}: ${first.status}, replayed ${replayed}`);
      }
    }
    expect(wrong, 'replayed and pending, or neither: route through sendWrite, or remove it from PENDING_SEND_WRITE').toEqual([]);
  });
});

/** Creates a record and returns the URL of its PATCH/DELETE, for each versioned route shape. */
async function recordUrl(store: TestStore, path: string): Promise<string | null> {
  const create = async (url: string, body: object) => (await t.call(store, 'POST', url, body)).body.data;
  if (path === '/products/{id}/variants/{variantId}') {
    const product = await create('/products', { title: 'V', price: 1, options: [{ name: 'Size', values: ['S'] }] });
    return `/products/${product.id}/variants/${product.variants[0].id}`;
  }
  if (path === '/addresses/{id}') {
    const customer = await create('/customers', { userName: `c-${newId()}`, password: '12345678' });
    return `/addresses/${(await create(`/customers/${customer.id}/addresses`, { city: 'X' })).id}`;
  }
  const collection = path.replace('/{id}', '');
  if (path === collection || !CREATE_BODIES[collection]) return null;
  const body = { ...CREATE_BODIES[collection], ...('userName' in CREATE_BODIES[collection] ? { userName: `c-${newId()}` } : {}) };
  const name = 'name' in body ? { name: `n-${newId()}` } : 'title' in body ? { title: `t-${newId()}` } : {};
  return `${collection}/${(await create(collection, { ...body, ...name })).id}`;
}

describe('every versioned PATCH and DELETE enforces If-Match', () => {
  it('a stale If-Match is 412 (or the route is listed as pending)', async () => {
    const store = await t.newStore();
    const wrong: string[] = [];
    const versioned = (w: { method: string; path: string }) =>
      w.method !== 'POST' && !w.path.startsWith('/api-keys') && !UNVERSIONED_DELETES.has(named(w));
    for (const name of UNVERSIONED_DELETES)
      if (!writes.some((w) => named(w) === name)) wrong.push(`${name}: listed as unversioned but no such route`);
    for (const write of writes.filter(versioned)) {
      const url = await recordUrl(store, write.path);
      if (!url) throw new Error(`no way to create a record for ${named(write)}: teach recordUrl`);
      const res = await t.call(store, write.method, url, write.method === 'DELETE' ? undefined : {}, { 'if-match': '"stale"' });
      if ((res.status === 412) === PENDING_IF_MATCH.has(named(write))) wrong.push(`${named(write)}: ${res.status}`);
      if ((res.status === 412) !== documentsIfMatch(write))
        wrong.push(`${named(write)}: ${res.status}, If-Match documented: ${documentsIfMatch(write)}`);
    }
    expect(
      wrong,
      '412 and pending, or neither: pass sendWrite a `current` loader, or remove it from PENDING_IF_MATCH; and the document says so',
    ).toEqual([]);
  });
});
