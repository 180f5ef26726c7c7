import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { postImport } from '../../test/support/jobs.fixtures.js';
import { type ImportHandlers, importJobKind } from '../imports/import-job.js';
import type { ImportHandler } from '../imports/index.js';
import { runOneJob } from '../jobs/runner.js';
import { createMediaStore } from '../media/index.js';
import { importProductLine } from './products.import.js';

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

type Log = { warn(...args: unknown[]): void; error(object: object, message?: string): void };
const quiet: Log = { warn: () => undefined, error: () => undefined };
type Mode = 'batch' | 'per-line' | 'throwing';

/** Runs the store's import jobs with the products' batch applier, without it, or with one that writes then throws. */
async function runImports(store: TestStore, mode: Mode = 'batch', log = quiet, batchMs = 3_600_000) {
  const real = importProductLine({ config: t.config, media: createMediaStore(t.config) }) as ImportHandler;
  const products: ImportHandler =
    mode === 'batch'
      ? real
      : mode === 'per-line'
        ? { line: real.line }
        : {
            line: real.line,
            batch: async (...args) => {
              await real.batch?.(...args);
              throw new Error('batch applier bug');
            },
          };
  const handlers: ImportHandlers = { products };
  const kind = importJobKind({
    dataDir: t.config.dataDir,
    maxLineBytes: t.config.bodyLimit,
    handlers,
    batchLines: 100,
    batchMs,
    log,
  });
  const runner = { db: t.database.db, kinds: { import: kind }, leaseSeconds: 30, log: quiet };
  while (await runOneJob(runner, { storeId: store.id })) {}
}

async function importLines(store: TestStore, lines: unknown[], mode: Mode = 'batch', log = quiet, batchMs?: number) {
  const posted = await postImport(t, store, 'products', lines);
  expect(posted.status).toBe(202);
  await runImports(store, mode, log, batchMs);
  const job = (await t.call(store, 'GET', `/jobs/${posted.body.data.id}`)).body.data;
  const errors = (await t.call(store, 'GET', `/jobs/${job.id}/errors?limit=100`)).body.data;
  return { job, errors };
}

const OPTIONS = [
  { name: 'Size', values: ['S', 'M', 'L'] },
  { name: 'Color', values: ['Red', 'Blue', 'Green'] },
];

function line(handle: string, price = 10, extra: object = {}) {
  return {
    title: ` Product ${handle} `,
    handle,
    description: `About ${handle}`,
    status: price > 50 ? 'disabled' : 'active',
    price,
    comparePrice: price + 5,
    options: OPTIONS,
    variants: [
      { attributes: { Size: 'M', Color: 'Blue' }, price: price + 2, stock: 4, sku: ` ${handle}-special ` },
      { attributes: { color: 'Red', size: 'L' }, salePrice: price + 9, stock: 7 },
    ],
    ...extra,
  };
}

interface VariantOut {
  id: string;
  attributes: Record<string, string>;
  stock: number;
  [field: string]: unknown;
}
interface ProductOut {
  id: string;
  handle: string;
  title: string;
  variants: VariantOut[];
  [field: string]: unknown;
}
interface AttributeOut {
  name: string;
  values: { name: string }[];
}
interface EventOut {
  type: string;
  data: { id: string; handle?: string; name?: string };
}

const products = async (store: TestStore) => (await t.call(store, 'GET', '/products?limit=100&sort=title')).body.data as ProductOut[];
const events = async (store: TestStore) => (await t.call(store, 'GET', '/events?limit=250')).body.data as EventOut[];

/** A product without what differs between two writes of the same body: ids and timestamps. */
function comparable(product: ProductOut) {
  const { id: _id, createdAt: _created, updatedAt: _updated, variants, ...rest } = product;
  return { ...rest, variants: variants.map(({ id: _i, productId: _p, createdAt: _c, updatedAt: _u, ...v }) => v) };
}
const namesOf = (attributes: AttributeOut[]) => attributes.map((a) => [a.name, a.values.map((v) => v.name)]);
const isMBlue = (v: VariantOut) => v.attributes.Size === 'M' && v.attributes.Color === 'Blue';

/** Each variant's SKU with the attribute values it is linked to (variant_attribute_values). */
async function linksOf(store: TestStore) {
  const rows = await t.database.db
    .selectFrom('variant_attribute_values as l')
    .innerJoin('variants as v', (join) => join.onRef('v.store_id', '=', 'l.store_id').onRef('v.id', '=', 'l.variant_id'))
    .innerJoin('attribute_values as av', (join) => join.onRef('av.store_id', '=', 'l.store_id').onRef('av.id', '=', 'l.attribute_value_id'))
    .innerJoin('attributes as a', (join) => join.onRef('a.store_id', '=', 'av.store_id').onRef('a.id', '=', 'av.attribute_id'))
    .select(['v.sku', 'a.name as attribute', 'av.name as value', 'av.position'])
    .where('l.store_id', '=', store.id)
    .execute();
  return rows.map((row) => `${row.sku}:${row.attribute}=${row.value}@${row.position}`).sort();
}

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
    const { job, errors } = await importLines(store, lines);
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ status: 'succeeded', processed: 4, created: 4, updated: 0, failed: 0 });
    for (const body of lines) expect((await t.call(viaApi, 'POST', '/products', body)).status).toBe(201);

    const imported = await products(store);
    expect(imported.map(comparable)).toEqual((await products(viaApi)).map(comparable));
    expect(imported.find((p) => p.handle === 'a')?.variants.find(isMBlue)).toMatchObject({
      price: 12,
      salePrice: 15,
      stock: 4,
      sku: 'a-special',
    });
    expect(await linksOf(store)).toEqual(await linksOf(viaApi));
    const attributes = async (s: TestStore) => namesOf((await t.call(s, 'GET', '/attributes?expand=values&sort=name')).body.data);
    expect(await attributes(store)).toEqual(await attributes(viaApi));
    // the list counters (statement-level triggers) count a multi-row insert
    expect((await t.call(store, 'GET', '/products?limit=1')).body.pagination.total).toBe(4);
    expect((await t.call(store, 'GET', '/products?limit=1&status=disabled')).body.pagination.total).toBe(1);

    const feed = await events(store);
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
    const { job, errors } = await importLines(store, [line('good1'), ...bad, line('good2')]);
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
    expect((await products(store)).map((p) => p.handle)).toEqual(['good1', 'good2']);
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
      const { job, errors } = await importLines(store, lines, mode);
      const attributes = (await t.call(store, 'GET', '/attributes?expand=values&sort=name')).body.data;
      const feed = (await events(store)).map((event) => `${event.type}:${event.data.handle ?? event.data.name}`);
      outcomes.push({
        counters: [job.created, job.updated, job.failed],
        errors,
        products: (await products(store)).map(comparable),
        attributes: namesOf(attributes),
        links: await linksOf(store),
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
    const { job } = await importLines(store, [line('first'), line('taken', 33), line('last')]);
    expect(job).toMatchObject({ created: 2, updated: 1, failed: 0 });
    const [taken] = (await t.call(store, 'GET', '/products?handle=taken')).body.data;
    expect(taken).toMatchObject({ id: other.id, price: 33, title: 'Product taken' });
    expect(taken.variants).toHaveLength(9);
    expect((await t.call(store, 'GET', '/products?limit=1')).body.pagination.total).toBe(3);
    const feed = (await events(store)).filter((event) => event.type.startsWith('product.'));
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
      const { job, errors } = await importLines(store, lines, mode, log);
      const feed = (await events(store)).map((event) => `${event.type}:${event.data.handle ?? event.data.name}`);
      runs.push({ counters: [job.created, job.updated, job.failed], errors, products: (await products(store)).map(comparable), feed });
    }
    expect(logged).toHaveLength(1);
    expect(runs[0].counters).toEqual([3, 0, 1]);
    expect(runs[0]).toEqual(runs[1]);
  });
});

describe('batch import: time bound', () => {
  it('ends a batch at the time bound only after the lines the batch part wrote; lines it only judged are judged again', async () => {
    const store = await t.newStore();
    await importLines(store, [line('seen1'), line('seen2'), line('edited')]);
    const edited = (await products(store)).find((p) => p.handle === 'edited') as ProductOut;
    await t.call(store, 'PATCH', `/products/${edited.id}`, { title: 'Edited by hand' });
    // batchMs 0: every line the batch part did not write may end its batch
    const lines = [line('new1'), line('new2'), line('seen1'), line('edited'), line('seen2'), line('new3')];
    const { job, errors } = await importLines(store, lines, 'batch', quiet, 0);
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ status: 'succeeded', processed: 6, created: 3, updated: 3, failed: 0 });
    expect((await products(store)).map((p) => p.handle)).toEqual(['edited', 'new1', 'new2', 'new3', 'seen1', 'seen2']);
    expect((await t.call(store, 'GET', '/products?limit=1')).body.pagination.total).toBe(6);
    expect((await events(store)).filter((e) => e.type === 'product.updated').map((e) => e.data.handle)).toEqual(['edited', 'edited']);
  });
});

describe('re-import', () => {
  it('of the same file: 0 created, every line updated, nothing written, no event', async () => {
    const store = await t.newStore();
    const lines = Array.from({ length: 150 }, (_, i) => line(`p-${i}`, i));
    expect((await importLines(store, lines)).job).toMatchObject({ created: 150, failed: 0 });
    const before = await t.database.db
      .selectFrom('products')
      .select(['id', 'updated_at'])
      .where('store_id', '=', store.id)
      .orderBy('id')
      .execute();
    const variantsBefore = await t.database.db
      .selectFrom('variants')
      .select(['id', 'updated_at'])
      .where('store_id', '=', store.id)
      .orderBy('id')
      .execute();
    const feedBefore = (await events(store)).length;

    const { job } = await importLines(store, lines);
    expect(job).toMatchObject({ status: 'succeeded', processed: 150, created: 0, updated: 150, failed: 0 });
    expect(
      await t.database.db.selectFrom('products').select(['id', 'updated_at']).where('store_id', '=', store.id).orderBy('id').execute(),
    ).toEqual(before);
    expect(
      await t.database.db.selectFrom('variants').select(['id', 'updated_at']).where('store_id', '=', store.id).orderBy('id').execute(),
    ).toEqual(variantsBefore);
    expect(await events(store)).toHaveLength(feedBefore);
    // the per-line path (a fallback) sees the same: an unchanged product is not written either
    expect((await importLines(store, lines.slice(0, 3), 'per-line')).job).toMatchObject({ created: 0, updated: 3 });
    expect(await events(store)).toHaveLength(feedBefore);
  });

  it('after a PATCH of a product or of a variant: those are updated for real, the others not', async () => {
    const store = await t.newStore();
    const lines = [line('r1'), line('r2'), line('r3')];
    await importLines(store, lines);
    const [r1, r2, r3] = await products(store);
    await t.call(store, 'PATCH', `/products/${r1.id}`, { title: 'Edited' });
    const variant = r2.variants.find(isMBlue) as VariantOut;
    expect((await t.call(store, 'PATCH', `/products/${r2.id}/variants/${variant.id}`, { stock: 99 })).status).toBe(200);
    const feedBefore = (await events(store)).length;

    const { job } = await importLines(store, lines);
    expect(job).toMatchObject({ created: 0, updated: 3, failed: 0 });
    const after = await products(store);
    expect(after[0].title).toBe('Product r1');
    expect(after[1].variants.find((v) => v.id === variant.id)?.stock).toBe(4);
    expect(after[2]).toEqual(r3);
    const feed = (await events(store)).slice(feedBefore);
    expect(feed.map((event) => `${event.type}:${event.data.handle}`)).toEqual(['product.updated:r1', 'product.updated:r2']);
    // and those lines are now the products' last import: a third run writes nothing
    await importLines(store, lines);
    expect(await events(store)).toHaveLength(feedBefore + 2);
  });
});
