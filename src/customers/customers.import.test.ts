import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { feedOf } from '../../test/support/feed.fixtures.js';
import { apiError, fetched, lineError, lineEvents, runLine } from '../../test/support/import-lines.fixtures.js';
import { importCustomerLine } from './index.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
}, 180_000);
afterAll(() => t.close());

const importLine = (store: TestStore, line: unknown) => runLine(t, store, importCustomerLine, line);

async function customersOf(store: TestStore) {
  return (await t.call(store, 'GET', '/customers?limit=250')).body.data as { id: string; userName: string }[];
}

async function addressesOf(store: TestStore, customerId: string) {
  return (await t.call(store, 'GET', `/customers/${customerId}/addresses`)).body.data as { id: string; city: string }[];
}

describe('customers import: upsert by userName', () => {
  it('creates with password and address as POST would; a known userName (any case) is updated as PATCH would', async () => {
    const store = await t.newStore();
    const line = { userName: 'ada', password: 'long-secret-1', email: 'ada@example.com', firstName: 'Ada', address: { city: 'Paris' } };
    expect(await importLine(store, line)).toBe('created');
    const [ada] = await customersOf(store);
    expect(await fetched(t, store, `/customers/${ada.id}`)).toMatchObject({ userName: 'ada', email: 'ada@example.com', role: 'user' });
    expect((await addressesOf(store, ada.id)).map((a) => a.city)).toEqual(['Paris']);

    const update = { userName: 'ADA', lastName: 'Lovelace', password: 'another-secret', address: { city: 'London' } };
    expect(await importLine(store, update)).toBe('updated');
    expect(await customersOf(store)).toHaveLength(1);
    expect(await fetched(t, store, `/customers/${ada.id}`)).toMatchObject({
      userName: 'ada',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
    });
    // Neither the address nor the password of a known customer is applied: a re-import adds no second address.
    expect((await addressesOf(store, ada.id)).map((a) => a.city)).toEqual(['Paris']);
  });

  it('takes a record as GET returns it (no password) for a known customer, and changes nothing', async () => {
    const store = await t.newStore();
    const created = (
      await t.call(store, 'POST', '/customers', {
        userName: 'bob',
        password: 'long-secret-1',
        email: 'bob@example.com',
        phoneNumber: '+33',
      })
    ).body.data;
    const { outcome, events } = await lineEvents(t, store, importCustomerLine, created);
    expect(outcome).toBe('updated');
    expect(events).toEqual([]);
    expect(await fetched(t, store, `/customers/${created.id}`)).toEqual(created);
  });

  it('the same line twice: created, then updated with nothing changed', async () => {
    const store = await t.newStore();
    const line = { userName: 'cleo', password: 'long-secret-1', businessName: 'Cleo & Co', address: { city: 'Rome' } };
    expect(await importLine(store, line)).toBe('created');
    const [cleo] = await customersOf(store);
    const first = await fetched(t, store, `/customers/${cleo.id}`);
    const { outcome, events } = await lineEvents(t, store, importCustomerLine, line);
    expect(outcome).toBe('updated');
    expect(events).toEqual([]);
    expect(await fetched(t, store, `/customers/${cleo.id}`)).toEqual(first);
    expect(await addressesOf(store, cleo.id)).toHaveLength(1);
  });
});

describe('customers import: errors are the API’s', () => {
  const bad: [string, Record<string, unknown>][] = [
    ['a short password and a bad email, all at once', { userName: 'dan', password: 'short', email: 'nope' }],
    ['no userName', { password: 'long-secret-1' }],
    ['a blank userName', { userName: '   ', password: 'long-secret-1' }],
    ['a NUL in the userName', { userName: 'd\u0000n', password: 'long-secret-1' }],
    ['a bad address', { userName: 'dan', password: 'long-secret-1', address: { addressType: 'Castle' } }],
    ['a wrong type', { userName: 'dan', password: 'long-secret-1', firstName: 7 }],
  ];
  for (const [name, body] of bad) {
    it(`${name}: the code and details POST /customers answers`, async () => {
      const store = await t.newStore();
      expect(await lineError(t, store, importCustomerLine, body)).toEqual(await apiError(t, store, 'POST', '/customers', body));
      expect(await customersOf(store)).toEqual([]);
    });
  }

  it('an email taken by another customer: DUPLICATE_VALUE naming email, as POST and PATCH answer', async () => {
    const store = await t.newStore();
    await importLine(store, { userName: 'eve', password: 'long-secret-1', email: 'eve@example.com' });
    await importLine(store, { userName: 'fay', password: 'long-secret-1' });
    const created = { userName: 'gus', password: 'long-secret-1', email: 'EVE@example.com' };
    expect(await lineError(t, store, importCustomerLine, created)).toEqual(await apiError(t, store, 'POST', '/customers', created));
    const [fay] = (await customersOf(store)).filter((c) => c.userName === 'fay');
    const updated = { userName: 'fay', email: 'eve@example.com' };
    const error = await lineError(t, store, importCustomerLine, updated);
    expect(error).toEqual(await apiError(t, store, 'PATCH', `/customers/${fay.id}`, updated));
    expect(error.code).toBe('DUPLICATE_VALUE');
  });

  it("another store's customer of the same userName is no match: the line creates one here", async () => {
    const store = await t.newStore();
    const other = await t.newStore();
    await t.call(other, 'POST', '/customers', { userName: 'hal', password: 'long-secret-1', firstName: 'Theirs' });
    expect(await importLine(store, { userName: 'hal', password: 'long-secret-1', firstName: 'Mine' })).toBe('created');
    expect((await customersOf(other)).length).toBe(1);
    const [theirs] = await customersOf(other);
    expect((await fetched(t, other, `/customers/${theirs.id}`)).firstName).toBe('Theirs');
  });
});

describe('customers import: events', () => {
  it('appends customer.created / customer.updated with the record as GET returns it; a refused line none', async () => {
    const store = await t.newStore();
    const created = await lineEvents(t, store, importCustomerLine, { userName: 'ivy', password: 'long-secret-1' });
    expect(created.outcome).toBe('created');
    const [ivy] = await customersOf(store);
    expect(created.events.map((event) => event.type)).toEqual(['customer.created']);
    const afterCreate = await fetched(t, store, `/customers/${ivy.id}`);
    expect(created.events[0].data).toEqual(afterCreate);
    const updated = await lineEvents(t, store, importCustomerLine, { userName: 'ivy', firstName: 'Ivy' });
    expect(updated.events.map((event) => event.type)).toEqual(['customer.updated']);
    expect(updated.events[0].data).toEqual(await fetched(t, store, `/customers/${ivy.id}`));
    const { eventsOf } = feedOf(() => t);
    const refused = await eventsOf(store, () => expect(importLine(store, { userName: 'ivy', email: 'bad' })).rejects.toThrow());
    expect(refused).toEqual([]);
  });
});
