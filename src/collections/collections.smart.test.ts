import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { newProduct, type Rule, smart } from '../../test/support/collections.fixtures.js';

let t: TestContext;
let store: TestStore;
beforeAll(async () => {
  t = await setupTestApp();
  // One catalog for the rule tests: each product is named after what makes it special.
  store = await t.newStore();
  const catalog = [
    { title: 'Summer Shirt', handle: 'shirt-summer', badge: 'Sale', price: 19.99, comparePrice: 29.99, totalStock: 5 },
    { title: 'Winter Coat', badge: 'new', price: 120, totalStock: 0, status: 'disabled' },
    { title: 'Plain Mug', price: 8.5, totalStock: 100 },
    { title: '50% Off Socks', price: 3 },
    { title: 'Free Sample' },
  ];
  for (const body of catalog) await newProduct(t, store, body);
  await newProduct(t, store, { title: 'Sized Tee', price: 12, options: [{ name: 'Size', values: ['S', 'XL'] }] });
  // Another store's lookalike must never show up.
  await newProduct(t, await t.newStore(), { title: 'Summer Shirt', badge: 'Sale', price: 19.99 });
});
afterAll(() => t.close());

async function members(conditions: Rule[], matchType?: string, target = store): Promise<string[]> {
  const collection = await smart(t, target, conditions, matchType);
  const reply = await t.call(target, 'GET', `/collections/${collection.id}/products?sort=title&limit=250`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.data.map((product: { title: string }) => product.title).sort();
}

const rule = (field: string, operator: string, value: string): Rule[] => [{ field, operator, value }];

describe('smart rules over text fields', () => {
  it.each([
    ['equals', 'summer shirt', ['Summer Shirt']],
    ['not_equals', 'SUMMER SHIRT', ['50% Off Socks', 'Free Sample', 'Plain Mug', 'Sized Tee', 'Winter Coat']],
    ['contains', 'IN', ['Plain Mug', 'Winter Coat']],
    ['not_contains', 's', ['Plain Mug', 'Winter Coat']],
    ['starts_with', 'free', ['Free Sample']],
    ['ends_with', 'TEE', ['Sized Tee']],
  ])('title %s %j (case-insensitive)', async (operator, value, expected) => {
    expect(await members(rule('title', operator, value))).toEqual(expected);
  });

  it('matches % and _ literally', async () => {
    expect(await members(rule('title', 'contains', '%'))).toEqual(['50% Off Socks']);
    expect(await members(rule('title', 'contains', '_'))).toEqual([]);
  });

  it('covers handle and status', async () => {
    expect(await members(rule('handle', 'starts_with', 'shirt-'))).toEqual(['Summer Shirt']);
    expect(await members(rule('status', 'equals', 'DISABLED'))).toEqual(['Winter Coat']);
  });

  it('treats a missing badge as matching only the negated operators', async () => {
    expect(await members(rule('badge', 'equals', 'sale'))).toEqual(['Summer Shirt']);
    expect(await members(rule('badge', 'not_equals', 'sale'))).toEqual([
      '50% Off Socks',
      'Free Sample',
      'Plain Mug',
      'Sized Tee',
      'Winter Coat',
    ]);
    expect(await members(rule('badge', 'not_contains', 'e'))).toEqual(['50% Off Socks', 'Free Sample', 'Plain Mug', 'Sized Tee']);
  });

  it('matches sku on any variant; a product without variants has no sku', async () => {
    expect(await members(rule('sku', 'ends_with', '-xl'))).toEqual(['Sized Tee']);
    expect(await members(rule('sku', 'contains', 'sized-tee'))).toEqual(['Sized Tee']);
    expect(await members(rule('sku', 'not_equals', 'sized-tee-s'))).toEqual([
      '50% Off Socks',
      'Free Sample',
      'Plain Mug',
      'Summer Shirt',
      'Winter Coat',
    ]);
  });
});

describe('smart rules over numbers', () => {
  it.each([
    ['price', 'equals', '19.99', ['Summer Shirt']],
    ['price', 'greater_than', '12', ['Summer Shirt', 'Winter Coat']],
    ['price', 'less_than', '12', ['50% Off Socks', 'Plain Mug']],
    ['price', 'not_equals', '19.990', ['50% Off Socks', 'Free Sample', 'Plain Mug', 'Sized Tee', 'Winter Coat']],
    ['comparePrice', 'greater_than', '0', ['Summer Shirt']],
    ['totalStock', 'less_than', '10', ['Summer Shirt', 'Winter Coat']],
    ['totalStock', 'equals', '100', ['Plain Mug']],
  ])('%s %s %s (exact, null never compares)', async (field, operator, value, expected) => {
    expect(await members(rule(field, operator, value))).toEqual(expected);
  });
});

describe('combining rules', () => {
  const rules = [
    { field: 'price', operator: 'less_than', value: '20' },
    { field: 'title', operator: 'contains', value: 's' },
  ];

  it("needs every rule with 'all condition' (the default)", async () => {
    expect(await members(rules)).toEqual(['50% Off Socks', 'Sized Tee', 'Summer Shirt']);
  });

  it("needs one rule with 'any condition'", async () => {
    expect(await members(rules, 'any condition')).toEqual(['50% Off Socks', 'Free Sample', 'Plain Mug', 'Sized Tee', 'Summer Shirt']);
  });
});

describe('smart membership is evaluated at read time', () => {
  it('follows product creates, updates and deletes', async () => {
    const own = await t.newStore();
    const collection = await smart(t, own, rule('price', 'greater_than', '50'));
    const url = `/collections/${collection.id}/products`;
    const cheap = await newProduct(t, own, { title: 'Cheap', price: 10 });
    expect((await t.call(own, 'GET', url)).body.data).toEqual([]);
    await t.call(own, 'PATCH', `/products/${cheap.id}`, { price: 99 });
    expect((await t.call(own, 'GET', url)).body.data.map((p: { id: string }) => p.id)).toEqual([cheap.id]);
    const dear = await newProduct(t, own, { title: 'Dear', price: 500 });
    expect((await t.call(own, 'GET', `${url}?sort=-price`)).body.data.map((p: { id: string }) => p.id)).toEqual([dear.id, cheap.id]);
    await t.call(own, 'DELETE', `/products/${dear.id}`);
    await t.call(own, 'PATCH', `/products/${cheap.id}`, { price: 1 });
    expect((await t.call(own, 'GET', url)).body.pagination.total).toBe(0);
  });

  it('follows variant SKU changes', async () => {
    const own = await t.newStore();
    const product = await newProduct(t, own, { title: 'Cap', options: [{ name: 'Color', values: ['Red'] }] });
    const collection = await smart(t, own, rule('sku', 'equals', 'promo-1'));
    expect((await t.call(own, 'GET', `/collections/${collection.id}/products`)).body.data).toEqual([]);
    await t.call(own, 'PATCH', `/products/${product.id}/variants/${product.variants[0].id}`, { sku: 'PROMO-1' });
    expect((await t.call(own, 'GET', `/collections/${collection.id}/products`)).body.data.map((p: { id: string }) => p.id)).toEqual([
      product.id,
    ]);
  });

  it('follows rule changes, and a smart collection never lists selectedProducts', async () => {
    const collection = await smart(t, store, rule('title', 'starts_with', 'summer'));
    const patched = await t.call(store, 'PATCH', `/collections/${collection.id}`, {
      matchType: 'any condition',
      conditions: [...rule('title', 'equals', 'plain mug'), ...rule('badge', 'equals', 'NEW')],
    });
    expect(patched.body.data).toMatchObject({ matchType: 'any condition', selectedProducts: [] });
    const titles = (await t.call(store, 'GET', `/collections/${collection.id}/products?sort=title`)).body.data.map(
      (p: { title: string }) => p.title,
    );
    expect(titles).toEqual(['Plain Mug', 'Winter Coat']);
    const reset = await t.call(store, 'PATCH', `/collections/${collection.id}`, { matchType: null });
    expect(reset.body.data.matchType).toBe('all condition');
    expect(reset.body.data.conditions).toHaveLength(2);
    const roundTrip = await t.call(store, 'PATCH', `/collections/${collection.id}`, reset.body.data);
    expect({ ...roundTrip.body.data, updatedAt: null }).toEqual({ ...reset.body.data, updatedAt: null });
  });
});

describe('rule validation', () => {
  it('names the wrong part of each wrong condition, all at once', async () => {
    const reply = await t.call(store, 'POST', '/collections', {
      title: 'Bad rules',
      collectionType: 'smart',
      conditions: [
        { field: 'title', operator: 'contains', value: 'ok' },
        { field: 'title', operator: 'greater_than', value: '3' },
        { field: 'price', operator: 'starts_with', value: '3' },
        { field: 'totalStock', operator: 'less_than', value: 'ten' },
        { field: 'comparePrice', operator: 'equals', value: '1e999' },
      ],
    });
    const fields = expectError(reply, 400, 'VALIDATION_ERROR').details.map((d) => d.field);
    expect(fields).toEqual(['conditions[1].operator', 'conditions[2].operator', 'conditions[3].value', 'conditions[4].value']);
  });

  it('types every condition strictly', async () => {
    const bad = [
      { field: 'color', operator: 'equals', value: 'x' },
      { field: 'price', operator: 'equals', value: 5 },
      { field: 'title', operator: 'equals', value: '' },
      { field: 'title', operator: 'like', value: 'x' },
      { field: 'title' },
    ];
    const reply = await t.call(store, 'POST', '/collections', { title: 'Typed', collectionType: 'smart', conditions: bad });
    const fields = expectError(reply, 400, 'VALIDATION_ERROR').details.map((d) => d.field);
    expect(fields.sort()).toEqual([
      'conditions[0].field',
      'conditions[1].value',
      'conditions[2].value',
      'conditions[3].operator',
      'conditions[4].operator',
      'conditions[4].value',
    ]);
  });

  it('refuses unknown properties of a condition by their path; lenient handling drops them', async () => {
    const body = { title: 'Smart', collectionType: 'smart', conditions: [{ field: 'title', operator: 'equals', value: 'x', extra: 1 }] };
    const refused = expectError(await t.call(store, 'POST', '/collections', body), 400, 'VALIDATION_ERROR');
    expect(refused.details.map((d) => d.field)).toEqual(['conditions[0].extra']);
    const res = await t.call(store, 'POST', '/collections', body, { prefer: 'handling=lenient' });
    expect(res.status).toBe(201);
    expect(res.body.data.conditions).toEqual([{ field: 'title', operator: 'equals', value: 'x' }]);
  });
});
