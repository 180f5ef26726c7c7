import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStatements, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { selectByIds } from './by-ids.js';

let t: TestContext;
const statements: string[] = [];
beforeAll(async () => {
  t = await setupTestApp({}, recordStatements(statements));
});
afterAll(() => t.close());

async function newSets(store: TestStore, names: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) {
    const res = await t.call(store, 'POST', '/attribute-sets', { name });
    expect(res.status).toBe(201);
    ids.push(res.body.data.id);
  }
  return ids;
}

const setsOf = (storeId: string) =>
  t.database.db.selectFrom('attribute_sets').select(['attribute_sets.id', 'attribute_sets.name']).where('store_id', '=', storeId);

describe('selectByIds (the by-ids read of every resource)', () => {
  it("reads the store's records among the ids in one statement, in the order of the ids, each once", async () => {
    const [store, other] = [await t.newStore(), await t.newStore()];
    const [a, b, c] = await newSets(store, ['A', 'B', 'C']);
    const [elsewhere] = await newSets(other, ['Other']);
    const before = statements.length;
    const rows = await selectByIds(setsOf(store.id), [c, 'not-an-id', a, elsewhere, c, b]);
    expect(statements.length - before).toBe(1);
    expect(rows.map((row) => row.name)).toEqual(['C', 'A', 'B']);
    expect(rows.map((row) => row.id)).toEqual([c, a, b]);
  });

  it('sends no statement when no id is an id, and names a qualified column as given', async () => {
    const store = await t.newStore();
    const [a] = await newSets(store, ['A']);
    const before = statements.length;
    expect(await selectByIds(setsOf(store.id), ['', 'x'])).toEqual([]);
    expect(statements.length).toBe(before);
    expect(await selectByIds(setsOf(store.id), [a], 'attribute_sets.id')).toEqual([{ id: a, name: 'A' }]);
  });
});
