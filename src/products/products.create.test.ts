import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext } from '../../test/helpers.js';
import type { Db } from '../db/database.js';
import { createMediaStore } from '../media/index.js';
import { createProduct } from './products.service.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

/** A view of the database that records the statements it runs. */
function recording(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      statements.push(args.node.kind);
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(plugin), statements };
}

const OPTIONS = [
  { name: 'Größe', values: ['S', 'M', 'L'] },
  { name: 'Color', values: ['Red', 'Green', 'Blue'] },
  { name: 'Ü', values: ['ä', 'b'] },
];

describe('products: create', () => {
  it('answers exactly what a read returns afterwards (the output is built from the written rows)', async () => {
    const store = await t.newStore();
    for (const body of [
      { title: 'Built', price: 12.5, comparePrice: 20.1, options: OPTIONS, description: 'd', images: ['https://cdn.test/a.jpg'] },
      { title: 'Built', options: [{ name: 'Pack', values: ['Six'] }], returnConfig: { returnable: false } },
      { title: 'Plain', price: 3 },
    ]) {
      const created = await t.call(store, 'POST', '/products', body);
      expect(created.status).toBe(201);
      const read = await t.call(store, 'GET', `/products/${created.body.data.id}`);
      expect(created.body.data).toEqual(read.body.data);
      // the keys in the order a read gives them, too
      expect(JSON.stringify(created.body.data)).toBe(JSON.stringify(read.body.data));
    }
  });

  it('takes three statements once the option values exist: the product, the values read, the variants with their links', async () => {
    const store = await t.newStore();
    const ctx = { media: createMediaStore(t.config, t.database), config: t.config };
    const input = (title: string) => ({ title, price: 10, options: OPTIONS });
    await createProduct(t.database.db, store.id, input('First'), ctx); // creates the attributes and values
    const view = recording(t.database.db);
    const product = await createProduct(view.db, store.id, input('Second'), ctx);
    expect(product.variants).toHaveLength(18);
    expect(view.statements).toEqual(['InsertQueryNode', 'RawNode', 'RawNode']);
    const links = await t.database.db
      .selectFrom('variant_attribute_values')
      .where('store_id', '=', store.id)
      .where(
        'variant_id',
        'in',
        product.variants.map((variant) => variant.id),
      )
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(links.n)).toBe(18 * OPTIONS.length);
    // a taken handle costs a read of the taken ones and a second insert
    const again = recording(t.database.db);
    expect((await createProduct(again.db, store.id, input('Second'), ctx)).handle).toBe('second-2');
    expect(again.statements).toHaveLength(5);
  });
});
