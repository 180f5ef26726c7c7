import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { runLine } from '../../test/support/import-lines.fixtures.js';
import { storedDocument } from '../reads/index.js';
import { etagOf } from '../shared/index.js';
import { rebuildCustomerDocuments } from './customers.documents.js';
import { getCustomer, getCustomersByIds } from './customers.service.js';
import { CUSTOMER_DOCUMENTS } from './customers.sql.js';
import { importCustomerLine } from './index.js';

/**
 * Stored customer documents (migrations/0075): every write through the API (and an import line) leaves the
 * customer it changed with a document equal to the customer built from its row, and GET /customers sends the
 * documents only while the row is the version they were written for, byte for byte what it sent before.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const stored = (store: TestStore, id: string) => storedDocument(t.database.db, CUSTOMER_DOCUMENTS, store.id, id);

/** The customer's stored document is there, current, and the customer as its row gives it (text and ETag). */
async function expectCurrentDocument(store: TestStore, id: string): Promise<void> {
  const document = await stored(store, id);
  const built = await getCustomer(t.database.db, store.id, id);
  expect(document?.body).toBe(JSON.stringify(built));
  expect(document?.etag).toBe(etagOf(built));
}

/** The list's raw text, and the text the envelope of the customers built from their rows serializes to. */
async function listAndBuilt(store: TestStore, query = '') {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/v1/customers${query}`,
    headers: { authorization: `Bearer ${store.token}` },
  });
  const listed = JSON.parse(response.body) as { data: { id: string }[]; pagination: object };
  const built = await getCustomersByIds(
    t.database.db,
    store.id,
    listed.data.map((customer) => customer.id),
  );
  return { response, text: response.body, expected: JSON.stringify({ success: true, data: built, pagination: listed.pagination }) };
}

describe('stored customer documents', () => {
  it('every write that changes a customer leaves it with a current document', async () => {
    const store = await t.newStore();
    const created = await t.call(store, 'POST', '/customers', {
      userName: 'ada',
      password: 'long-secret-1',
      email: 'ada@mail.test',
      customFields: { zeta: 1, alpha: 'x', mid: true },
      address: { city: 'Paris' },
    });
    expect(created.status).toBe(201);
    const { id } = created.body.data;
    await expectCurrentDocument(store, id);

    await t.call(store, 'PATCH', `/customers/${id}`, { firstName: 'Ada', phoneNumber: null });
    await expectCurrentDocument(store, id);
    await t.call(store, 'PATCH', `/customers/${id}`, { customFields: { alpha: null, beta: 'ü "quoted"\n' } });
    await expectCurrentDocument(store, id);
    await t.call(store, 'PATCH', `/customers/${id}`, { password: 'another-secret' });
    await expectCurrentDocument(store, id);
    // an address write does not change the customer's representation: its document stays current
    expect((await t.call(store, 'POST', `/customers/${id}/addresses`, { city: 'Lyon' })).status).toBe(201);
    await expectCurrentDocument(store, id);
    // an import line updating the customer
    await runLine(t, store, importCustomerLine, { userName: 'ADA', lastName: 'Lovelace' });
    expect((await getCustomer(t.database.db, store.id, id)).lastName).toBe('Lovelace');
    await expectCurrentDocument(store, id);
    // one created by an import line
    await runLine(t, store, importCustomerLine, { userName: 'bea', password: 'long-secret-2' });
    const bea = (await t.call(store, 'GET', '/customers')).body.data.find((c: { userName: string }) => c.userName === 'bea');
    await expectCurrentDocument(store, bea.id);

    // a deleted customer takes its document along
    expect((await t.call(store, 'DELETE', `/customers/${id}`)).status).toBe(200);
    const { rows } = await sql`SELECT 1 FROM customer_documents WHERE store_id = ${store.id} AND customer_id = ${id}`.execute(
      t.database.db,
    );
    expect(rows).toHaveLength(0);
  });

  it('the list sends what it sent before; a customer changed past the write door is built from its row', async () => {
    const store = await t.newStore();
    const ids: string[] = [];
    for (const userName of ['c1', 'c2', 'c3']) {
      const res = await t.call(store, 'POST', '/customers', { userName, password: 'long-secret-1', customFields: { b: 2, a: 1 } });
      ids.push(res.body.data.id);
    }
    const before = await listAndBuilt(store);
    expect(before.response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(before.text).toBe(before.expected);

    await sql`UPDATE customers SET first_name = 'Changed by a script' WHERE store_id = ${store.id} AND id = ${ids[1]}`.execute(
      t.database.db,
    );
    expect(await stored(store, ids[1])).toBeUndefined();
    const after = await listAndBuilt(store, '?limit=2&search=c');
    expect(after.text).toBe(after.expected);
    expect(JSON.parse(after.text).data.map((c: { firstName: string | null }) => c.firstName)).toEqual([null, 'Changed by a script']);

    expect(await rebuildCustomerDocuments(t.database.db, store.id)).toBe(1);
    await expectCurrentDocument(store, ids[1]);
    expect(await rebuildCustomerDocuments(t.database.db, store.id)).toBe(0);
  });
});
