import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext } from '../../test/helpers.js';
import { COMPONENT_EXAMPLES } from './openapi-examples.js';

/**
 * The examples of the document are what the server answers: each example request body is sent to a real
 * app (a new store, with what its path needs) and the answer must have the example response's shape (the
 * same keys at every depth, the same JSON types; ids and times may differ).
 */

// biome-ignore lint/suspicious/noExplicitAny: answers are compared key by key
type Any = any;

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** Where `actual` differs in shape from `expected`: a key missing or extra, or another JSON type. */
function shapeDifferences(expected: unknown, actual: unknown, path = '$'): string[] {
  if (typeOf(expected) !== typeOf(actual)) return [`${path}: ${typeOf(expected)} in the example, ${typeOf(actual)} answered`];
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length === 0 || actual.length === 0) {
      return expected.length === actual.length ? [] : [`${path}: ${expected.length} items in the example, ${actual.length} answered`];
    }
    return actual.flatMap((item, index) => shapeDifferences(expected[Math.min(index, expected.length - 1)], item, `${path}[${index}]`));
  }
  if (typeOf(expected) !== 'object') return [];
  const [e, a] = [expected as Record<string, unknown>, actual as Record<string, unknown>];
  const keys = [...new Set([...Object.keys(e), ...Object.keys(a)])].sort();
  return keys.flatMap((key) => {
    if (!(key in a)) return [`${path}.${key}: in the example, not answered`];
    if (!(key in e)) return [`${path}.${key}: answered, not in the example`];
    return shapeDifferences(e[key], a[key], `${path}.${key}`);
  });
}

/** The answer with what the server assigns (ids, times) masked, to compare values too. */
function masked(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => masked(item, key));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v, k)]));
  if (/^(id|productId|createdAt|updatedAt)$/.test(key)) return `<${key}>`;
  return value;
}

describe('the examples of the OpenAPI document', () => {
  it('create product: the example answer is what the example request creates', async () => {
    const store = await t.newStore();
    const created = await t.call(store, 'POST', '/products', COMPONENT_EXAMPLES.ProductCreate);
    expect(created.status).toBe(201);
    expect(shapeDifferences(COMPONENT_EXAMPLES.Product, created.body.data)).toEqual([]);
    expect(masked(created.body.data)).toEqual(masked(COMPONENT_EXAMPLES.Product));
  });

  it('update product, a variant: answers have the shapes of Product and Variant', async () => {
    const store = await t.newStore();
    const { body } = await t.call(store, 'POST', '/products', COMPONENT_EXAMPLES.ProductCreate);
    const updated = await t.call(store, 'PATCH', `/products/${body.data.id}`, COMPONENT_EXAMPLES.ProductUpdate);
    expect(updated.status).toBe(200);
    expect(shapeDifferences(COMPONENT_EXAMPLES.Product, updated.body.data)).toEqual([]);
    for (const variant of updated.body.data.variants) expect(shapeDifferences(COMPONENT_EXAMPLES.Variant, variant)).toEqual([]);
  });

  it('create customer: the answer has the shape of the Customer example', async () => {
    const store = await t.newStore();
    const created = await t.call(store, 'POST', '/customers', COMPONENT_EXAMPLES.CustomerCreate);
    expect(created.status).toBe(201);
    expect(shapeDifferences(COMPONENT_EXAMPLES.Customer, created.body.data)).toEqual([]);
  });

  it('create order: the answer has the shape of the Order example (its product created first)', async () => {
    const store = await t.newStore();
    const product = await t.call(store, 'POST', '/products', COMPONENT_EXAMPLES.ProductCreate);
    const customer = await t.call(store, 'POST', '/customers', COMPONENT_EXAMPLES.CustomerCreate);
    const example = COMPONENT_EXAMPLES.OrderCreate as Any;
    const order = {
      ...example,
      userId: customer.body.data.id,
      cartItems: example.cartItems.map((item: Any) => ({ ...item, productId: product.body.data.id })),
    };
    const created = await t.call(store, 'POST', '/orders', order);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(shapeDifferences(COMPONENT_EXAMPLES.Order, created.body.data)).toEqual([]);
  });
});
