import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { newCollection, newProduct } from '../../test/support/collections.fixtures.js';
import { feedOf } from '../../test/support/feed.fixtures.js';
import { apiError, fetched, lineError, lineEvents, runLine } from '../../test/support/import-lines.fixtures.js';
import { createMediaStore } from '../media/index.js';
import { importCollectionLine } from './index.js';

let t: TestContext;
let importCollection: ReturnType<typeof importCollectionLine>;
beforeAll(async () => {
  t = await setupTestApp();
  // The import engine's context: the app's media store and limits.
  importCollection = importCollectionLine({ media: createMediaStore(t.config, t.database), config: t.config });
}, 180_000);
afterAll(() => t.close());

const importLine = (store: TestStore, line: unknown) => runLine(t, store, importCollection, line);

async function collectionsOf(store: TestStore) {
  return (await t.call(store, 'GET', '/collections?limit=250')).body.data as { id: string; handle: string; title: string }[];
}

describe('collections import: upsert by handle', () => {
  it('creates a new handle, updates the same handle (slugified as the API does) as PATCH would', async () => {
    const store = await t.newStore();
    expect(await importLine(store, { title: 'Summer', handle: 'summer', description: 'hot' })).toBe('created');
    const [created] = await collectionsOf(store);
    expect(created).toMatchObject({ handle: 'summer', title: 'Summer' });
    expect(await importLine(store, { title: 'Summer Sale', handle: 'Summer', metaTitle: 'Sale' })).toBe('updated');
    const all = await collectionsOf(store);
    expect(all).toHaveLength(1);
    // PATCH semantics: absent fields stay (description), supplied ones change.
    expect(await fetched(t, store, `/collections/${created.id}`)).toMatchObject({
      id: created.id,
      title: 'Summer Sale',
      handle: 'summer',
      description: 'hot',
      metaTitle: 'Sale',
    });
    expect(await importLine(store, { title: 'Winter', handle: 'winter' })).toBe('created');
    expect(await collectionsOf(store)).toHaveLength(2);
  });

  it('takes a record as GET returns it (ids, timestamps, derived lists) and, fed back, changes nothing', async () => {
    const store = await t.newStore();
    const product = await newProduct(t, store, { title: 'Tee', price: 10 });
    const parent = await newCollection(t, store, { title: 'Clothes' });
    const child = await newCollection(t, store, { title: 'Tops', parentCollection: parent.id, selectedProducts: [product.id] });
    const before = await fetched(t, store, `/collections/${child.id}`);
    const parentBefore = await fetched(t, store, `/collections/${parent.id}`);
    const { outcome, events } = await lineEvents(t, store, importCollection, before);
    expect(outcome).toBe('updated');
    expect(events).toEqual([]);
    expect(await fetched(t, store, `/collections/${child.id}`)).toEqual(before);
    expect(await fetched(t, store, `/collections/${parent.id}`)).toEqual(parentBefore);
    // A smart collection as GET shows it too.
    const rules = await newCollection(t, store, {
      title: 'Cheap',
      collectionType: 'smart',
      conditions: [{ field: 'price', operator: 'less_than', value: '20' }],
    });
    expect(await importLine(store, rules)).toBe('updated');
    expect(await fetched(t, store, `/collections/${rules.id}`)).toEqual(rules);
  });

  it('a GET result of one store imported into another creates it there, references aside', async () => {
    const source = await t.newStore();
    const exported = await newCollection(t, source, { title: 'Gifts', description: 'for all', metaKeywords: 'gift' });
    const target = await t.newStore();
    expect(await importLine(target, exported)).toBe('created');
    const [copy] = await collectionsOf(target);
    const { id, createdAt, updatedAt, ...content } = exported;
    expect(await fetched(t, target, `/collections/${copy.id}`)).toMatchObject(content);
    expect(copy.id).not.toBe(id);
  });

  it('the same line twice: created, then updated with nothing changed', async () => {
    const store = await t.newStore();
    const product = await newProduct(t, store, { title: 'Mug', price: 5 });
    const line = { title: 'Kitchen', handle: 'kitchen', selectedProducts: [product.id], image: 'https://cdn.example.com/k.png' };
    expect(await importLine(store, line)).toBe('created');
    const [collection] = await collectionsOf(store);
    const first = await fetched(t, store, `/collections/${collection.id}`);
    const productFirst = await fetched(t, store, `/products/${product.id}`);
    const { outcome, events } = await lineEvents(t, store, importCollection, line);
    expect(outcome).toBe('updated');
    expect(events).toEqual([]);
    expect(await fetched(t, store, `/collections/${collection.id}`)).toEqual(first);
    expect(await fetched(t, store, `/products/${product.id}`)).toEqual(productFirst);
  });
});

describe('collections import: errors are the API’s', () => {
  const bad: [string, Record<string, unknown>][] = [
    ['a wrong type and a missing title', { handle: 'x', description: 5 }],
    ['a handle with nothing to slugify', { title: 'X', handle: '!!!' }],
    ['a smart collection without conditions', { title: 'X', handle: 'x', collectionType: 'smart' }],
    ['conditions on a manual collection', { title: 'X', handle: 'x', conditions: [{ field: 'price', operator: 'equals', value: '1' }] }],
    [
      'a bad rule',
      { title: 'X', handle: 'x', collectionType: 'smart', conditions: [{ field: 'price', operator: 'contains', value: 'a' }] },
    ],
    ['a NUL character', { title: 'a\u0000b', handle: 'x' }],
    ['an image that is no URL', { title: 'X', handle: 'x', image: 'ftp://example.com/a.png' }],
    ['unknown products', { title: 'X', handle: 'x', selectedProducts: ['0123456789abcdef01234567', 'nope'] }],
  ];
  for (const [name, body] of bad) {
    it(`${name}: the code and details POST /collections answers`, async () => {
      const store = await t.newStore();
      expect(await lineError(t, store, importCollection, body)).toEqual(await apiError(t, store, 'POST', '/collections', body));
      expect(await collectionsOf(store)).toEqual([]);
    });
  }

  it('a bad line for an existing handle: the code and details PATCH answers', async () => {
    const store = await t.newStore();
    const existing = await newCollection(t, store, { title: 'Sale', handle: 'sale' });
    const body = { title: 'Sale', handle: 'sale', parentCollection: existing.id };
    expect(await lineError(t, store, importCollection, body)).toEqual(
      await apiError(t, store, 'PATCH', `/collections/${existing.id}`, body),
    );
  });

  it('a line without a handle is refused: it could never be matched again', async () => {
    const store = await t.newStore();
    expect(await lineError(t, store, importCollection, { title: 'Nameless' })).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: [{ field: 'handle', in: 'body', message: expect.stringContaining('key') }],
    });
  });

  it('a data URI image is stored in the media store, its URL shown, as POST stores it', async () => {
    const store = await t.newStore();
    const pixel = `data:image/png;base64,${ONE_PIXEL_PNG}`;
    expect(await importLine(store, { title: 'Art', handle: 'art', image: pixel })).toBe('created');
    const [art] = await collectionsOf(store);
    const { image } = await fetched(t, store, `/collections/${art.id}`);
    expect(image).toMatch(/^http:\/\/storefront\.test\/media\//);
    const served = await t.call(null, 'GET', new URL(image).pathname);
    expect(served.status).toBe(200);
  });
});

describe('collections import: tenancy and events', () => {
  it("refuses another store's products and parent, as the API does", async () => {
    const store = await t.newStore();
    const other = await t.newStore();
    const foreignProduct = await newProduct(t, other, { title: 'Theirs', price: 1 });
    const foreignParent = await newCollection(t, other, { title: 'Theirs' });
    const body = { title: 'Mine', handle: 'mine', selectedProducts: [foreignProduct.id], parentCollection: foreignParent.id };
    const error = await lineError(t, store, importCollection, body);
    expect(error).toEqual(await apiError(t, store, 'POST', '/collections', body));
    expect(error.details.map((detail) => detail.field).sort()).toEqual(['parentCollection', 'selectedProducts[0]']);
    // Another store's handle is no match either: the line creates its own.
    expect(await importLine(store, { title: 'Theirs', handle: foreignParent.handle })).toBe('created');
    expect((await fetched(t, other, `/collections/${foreignParent.id}`)).title).toBe('Theirs');
  });

  it('appends the events the API write would: the record as GET returns it, and the derived ones', async () => {
    const store = await t.newStore();
    const product = await newProduct(t, store, { title: 'Tee', price: 10 });
    const parent = await newCollection(t, store, { title: 'Clothes' });
    const line = { title: 'Tops', handle: 'tops', parentCollection: parent.id, selectedProducts: [product.id] };
    const created = await lineEvents(t, store, importCollection, line);
    expect(created.outcome).toBe('created');
    const [tops] = (await collectionsOf(store)).filter((c) => c.handle === 'tops');
    expect(created.events.map((event) => [event.type, event.data.id]).sort()).toEqual(
      [
        ['collection.created', tops.id],
        ['collection.updated', parent.id],
        ['product.updated', product.id],
      ].sort(),
    );
    for (const event of created.events) {
      const url = event.type.startsWith('product') ? `/products/${event.data.id}` : `/collections/${event.data.id}`;
      expect(event.data).toEqual(await fetched(t, store, url));
    }
    const updated = await lineEvents(t, store, importCollection, { ...line, title: 'Tops & tees', selectedProducts: [] });
    expect(updated.outcome).toBe('updated');
    expect(updated.events.map((event) => event.type).sort()).toEqual(['collection.updated', 'product.updated']);
    expect(updated.events[0].data).toEqual(await fetched(t, store, `/collections/${tops.id}`));
  });

  it('a refused line appends nothing', async () => {
    const store = await t.newStore();
    const product = await newProduct(t, store, { title: 'Tee', price: 10 });
    const { eventsOf } = feedOf(() => t);
    const line = { title: 'X', handle: 'x', selectedProducts: [product.id, 'nope'] };
    const events = await eventsOf(store, () => expect(importLine(store, line)).rejects.toThrow());
    expect(events).toEqual([]);
  });
});

// A 1×1 transparent PNG.
const ONE_PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
