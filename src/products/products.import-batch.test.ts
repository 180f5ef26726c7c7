import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import {
  comparable,
  events,
  importLines,
  isMBlue,
  type Log,
  line,
  linksOf,
  namesOf,
  products,
} from '../../test/support/product-imports.fixtures.js';
import { withTx } from '../db/index.js';
import { createMediaStore } from '../media/index.js';
import { importProductBatch } from './products.import-batch.js';

// The lookup of the batch's handles, made to miss chosen handles once: a product created by another writer
// between the lookup and the insert (the ON CONFLICT path), without racing two transactions.
const hidden = vi.hoisted(() => new Set<string>());
vi.mock('./products.sql.js', async (original) => {
  const real = await original<typeof import('./products.sql.js')>();
  return {
    ...real,
    importMatchesByHandle: async (...args: Parameters<typeof real.importMatchesByHandle>) => {
      const matches = await real.importMatchesByHandle(...args);
      const shown = matches.filter((match) => !hidden.has(match.handle));
      hidden.clear();
      return shown;
    },
  };
});

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

describe('batch import of new products', () => {
  it('stores what POST /products stores, with exact counters and one product.created per product as GET shows it', async () => {
    const store = await t.newStore();
    const viaApi = await t.newStore();
    const lines = [
      line('a'),
      line('b', 60),
      line('c', 20, { options: [{ name: 'size', values: ['XL', 'S'] }], variants: [] }),
      line('d', 5, { options: [], variants: [] }),
    ];
    const { job, errors } = await importLines(t, store, lines);
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ status: 'succeeded', processed: 4, created: 4, updated: 0, failed: 0 });
    for (const body of lines) expect((await t.call(viaApi, 'POST', '/products', body)).status).toBe(201);

    const imported = await products(t, store);
    expect(imported.map(comparable)).toEqual((await products(t, viaApi)).map(comparable));
    expect(imported.find((p) => p.handle === 'a')?.variants.find(isMBlue)).toMatchObject({
      price: 12,
      salePrice: 15,
      stock: 4,
      sku: 'a-special',
    });
    expect(await linksOf(t, store)).toEqual(await linksOf(t, viaApi));
    const attributes = async (s: TestStore) => namesOf((await t.call(s, 'GET', '/attributes?expand=values&sort=name')).body.data);
    expect(await attributes(store)).toEqual(await attributes(viaApi));
    // the list counters (statement-level triggers) count a multi-row insert
    expect((await t.call(store, 'GET', '/products?limit=1')).body.pagination.total).toBe(4);
    expect((await t.call(store, 'GET', '/products?limit=1&status=disabled')).body.pagination.total).toBe(1);

    const feed = await events(t, store);
    const created = feed.filter((event) => event.type === 'product.created');
    expect(created.map((event) => event.data.handle).sort()).toEqual(['a', 'b', 'c', 'd']);
    for (const event of created) expect(event.data).toEqual((await t.call(store, 'GET', `/products/${event.data.id}`)).body.data);
    expect(feed.filter((event) => event.type.startsWith('attribute.')).map((event) => event.type)).toEqual([
      'attribute.created',
      'attribute.created',
    ]);
  });

  it('reports a bad line with the API code and details, and creates the good lines around it', async () => {
    const store = await t.newStore();
    const bad = [
      { title: 'Negative', handle: 'neg', price: -1 },
      { title: 'Compare', handle: 'cmp', price: 10, comparePrice: 5 },
      { ...line('entry'), variants: [{ attributes: { Size: 'XXL', Color: 'Red' }, price: 1 }] },
      { title: 'No handle' },
      { title: 'Empty handle', handle: '!!!' },
    ];
    const { job, errors } = await importLines(t, store, [line('good1'), ...bad, line('good2')]);
    expect(job).toMatchObject({ processed: 7, created: 2, failed: 5 });
    expect(errors.map((e: { line: number; code: string }) => [e.line, e.code])).toEqual(
      [2, 3, 4, 5, 6].map((n) => [n, 'VALIDATION_ERROR']),
    );
    for (const [i, body] of bad.entries()) {
      if (i === 3) continue; // POST needs no handle: the import's own refusal
      const direct = expectError(await t.call(store, 'POST', '/products', body), 400, 'VALIDATION_ERROR');
      expect(errors[i].details).toEqual(direct.details);
    }
    expect(errors[3].details[0]).toMatchObject({ field: 'handle' });
    expect((await products(t, store)).map((p) => p.handle)).toEqual(['good1', 'good2']);
  });
});

describe('batch import: file order', () => {
  it('gives what applying the lines one by one gives: duplicates, updates and creates mixed', async () => {
    // the batch part creates new1 and new2; the rest goes one by one (new3 too: it comes after the first
    // such line, and the order in which Cotton and Linen join the Material attribute is the file's)
    const lines = [
      line('new1'),
      line('new2', 12, { options: [{ name: 'Material', values: ['Silk', 'Wool'] }], variants: [] }),
      line('dup', 10),
      { title: 'Dup again', handle: 'DUP', price: 14, options: [{ name: 'Size', values: ['S', 'XS'] }] },
      '{broken',
      line('exists', 40, { options: [{ name: 'Material', values: ['Cotton'] }], variants: [] }),
      line('dup', 11),
      line('new3', 13, { options: [{ name: 'material', values: ['Linen', 'Silk'] }], variants: [] }),
    ];
    const outcomes = [];
    for (const mode of ['batch', 'per-line'] as const) {
      const store = await t.newStore();
      await t.call(store, 'POST', '/products', { title: 'Exists', handle: 'exists', price: 1 });
      const { job, errors } = await importLines(t, store, lines, mode);
      const attributes = (await t.call(store, 'GET', '/attributes?expand=values&sort=name')).body.data;
      const feed = (await events(t, store)).map((event) => `${event.type}:${event.data.handle ?? event.data.name}`);
      outcomes.push({
        counters: [job.created, job.updated, job.failed],
        errors,
        products: (await products(t, store)).map(comparable),
        attributes: namesOf(attributes),
        links: await linksOf(t, store),
        updates: feed.filter((event) => event.startsWith('product.updated')),
        created: feed.filter((event) => event.startsWith('product.created')).sort(),
      });
    }
    expect(outcomes[0].counters).toEqual([4, 3, 1]);
    expect(outcomes[0]).toEqual(outcomes[1]);
    expect(outcomes[0].updates).toEqual(['product.updated:dup', 'product.updated:exists', 'product.updated:dup']);
  });

  it('leaves a line whose handle another writer took meanwhile to the per-line path (ON CONFLICT)', async () => {
    const store = await t.newStore();
    const other = (await t.call(store, 'POST', '/products', { title: 'Taken', handle: 'taken', price: 1 })).body.data;
    hidden.add('taken');
    const { job } = await importLines(t, store, [line('first'), line('taken', 33), line('last')]);
    expect(job).toMatchObject({ created: 2, updated: 1, failed: 0 });
    const [taken] = (await t.call(store, 'GET', '/products?handle=taken')).body.data;
    expect(taken).toMatchObject({ id: other.id, price: 33, title: 'Product taken' });
    expect(taken.variants).toHaveLength(9);
    expect((await t.call(store, 'GET', '/products?limit=1')).body.pagination.total).toBe(3);
    const feed = (await events(t, store)).filter((event) => event.type.startsWith('product.'));
    expect(feed.map((event) => `${event.type}:${event.data.handle}`).sort()).toEqual([
      'product.created:first',
      'product.created:last',
      'product.created:taken',
      'product.updated:taken',
    ]);
  });

  it('applies every line one by one when the batch applier throws: its writes and events rolled back', async () => {
    const lines = [line('x1'), { title: 'Bad', handle: 'bad', price: -1 }, line('x2'), line('x3', 20)];
    const logged: object[] = [];
    const log: Log = { warn: () => undefined, error: (object: object) => void logged.push(object) };
    const runs = [];
    for (const mode of ['throwing', 'per-line'] as const) {
      const store = await t.newStore();
      const { job, errors } = await importLines(t, store, lines, mode, log);
      const feed = (await events(t, store)).map((event) => `${event.type}:${event.data.handle ?? event.data.name}`);
      runs.push({ counters: [job.created, job.updated, job.failed], errors, products: (await products(t, store)).map(comparable), feed });
    }
    expect(logged).toHaveLength(1);
    expect(runs[0].counters).toEqual([3, 0, 1]);
    expect(runs[0]).toEqual(runs[1]);
  });

  it("dates each created product, and its variants, by the caller's clock (the bench seeder's past dates; now in the API)", async () => {
    const store = await t.newStore();
    const dates = [new Date('2024-03-01T10:00:00.000Z'), new Date('2025-01-15T08:30:00.000Z')];
    const apply = importProductBatch({ config: t.config, media: createMediaStore(t.config, t.database) }, (given) => dates[given.line - 1]);
    const values = [line('past1'), line('past2')];
    const lines = values.map((value, index) => ({ line: index + 1, value, text: JSON.stringify(value) }));
    const results = await withTx(t.database.db, (trx) => apply(trx, store.id, lines, { handling: 'strict', afterWork: t.afterWork }));
    expect(results).toEqual(['created', 'created']);
    for (const [index, handle] of ['past1', 'past2'].entries()) {
      const [product] = (await t.call(store, 'GET', `/products?handle=${handle}`)).body.data;
      const at = dates[index].toISOString();
      expect(product).toMatchObject({ createdAt: at, updatedAt: at });
      expect(new Set(product.variants.map((variant: { createdAt: string }) => variant.createdAt))).toEqual(new Set([at]));
    }
    // sorted by creation, the older first: the dates are the rows' own
    const sorted = (await t.call(store, 'GET', '/products?sort=createdAt')).body.data.map((product: { handle: string }) => product.handle);
    expect(sorted).toEqual(['past1', 'past2']);
  });
});
