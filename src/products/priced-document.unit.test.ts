import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../shared/index.js';
import { withResolvedPrices } from './priced-document.js';

/**
 * The splice of priced-document.ts against the plain way: parse, add `resolvedPrice`, write canonical JSON.
 * Over generated documents shaped as products (the schema's keys, variants) whose free parts (custom fields,
 * attributes, option values, strings) hold whatever JSON: keys named `id`, `variants`, `resolvedPrice`,
 * `salePrice`, quotes, backslashes and brackets in strings.
 */

const tricky = fc.constantFrom('id', 'variants', 'resolvedPrice', 'salePrice', 'productId', 'zz', '"', '\\', '{', '[', ']', '}', ':', ',');
const freeKey = fc.oneof(tricky, fc.string());
const freeValue = fc.oneof(fc.jsonValue({ maxDepth: 2 }), tricky);
const freeObject = fc.dictionary(freeKey, freeValue, { maxKeys: 4 });
const idArb = fc.stringMatching(/^[0-9a-f]{6}$/);

const variantArb = fc.record({
  attributes: freeObject,
  barcode: fc.option(fc.string(), { nil: null }),
  createdAt: fc.constant('2026-01-01T00:00:00.000Z'),
  customFields: freeObject,
  id: idArb,
  image: fc.option(tricky, { nil: null }),
  price: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null }),
  productId: idArb,
  salePrice: fc.constant(null),
  sku: fc.option(freeKey, { nil: null }),
  stock: fc.integer(),
  updatedAt: fc.constant('2026-01-01T00:00:00.000Z'),
  weightGrams: fc.constant(null),
});

const productArb = fc.record({
  attributeSet: fc.constant(null),
  customFields: freeObject,
  handle: freeKey,
  id: idArb,
  image: fc.array(tricky, { maxLength: 2 }),
  options: fc.array(fc.record({ name: freeKey, values: fc.array(freeKey, { maxLength: 2 }) }), { maxLength: 2 }),
  price: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null }),
  productType: fc.option(freeKey, { nil: null }),
  returnConfig: freeObject,
  tags: fc.array(freeKey, { maxLength: 2 }),
  title: freeKey,
  variants: fc.array(variantArb, { maxLength: 4 }),
  vendor: fc.option(freeKey, { nil: null }),
});

const priceOf = (id: string) => ({
  productId: 'p',
  variantId: id,
  currency: 'EUR',
  price: 1.5,
  comparePrice: null,
  priceListId: null,
  basis: 'base',
});

describe('resolvedPrice spliced into a stored product document', () => {
  it('gives the canonical JSON of the document with resolvedPrice added, for any content', () => {
    fc.assert(
      fc.property(productArb, fc.boolean(), fc.boolean(), (product, simple, every) => {
        const doc = simple ? { ...product, variants: [] } : product;
        // some variants priced, some not (a variant the prices' read did not see)
        const priced = new Map(doc.variants.filter((_, k) => every || k % 2 === 0).map((variant) => [variant.id, priceOf(variant.id)]));
        const own = simple ? priceOf(doc.id) : undefined;
        const expected = {
          ...doc,
          ...(own ? { resolvedPrice: own } : {}),
          variants: doc.variants.map((variant) => ({ ...variant, resolvedPrice: priced.get(variant.id) })),
        };
        const text = withResolvedPrices(canonicalJson(doc), own && canonicalJson(own), (id) => {
          const price = priced.get(id);
          return price && canonicalJson(price);
        });
        expect(text).toBe(canonicalJson(expected));
      }),
      { numRuns: 3000 },
    );
  });

  it('puts the key in its sorted place, and into an object without keys after it', () => {
    expect(withResolvedPrices('{"id":"p","returnConfig":{},"variants":[]}', '{"price":1}', () => undefined)).toBe(
      '{"id":"p","resolvedPrice":{"price":1},"returnConfig":{},"variants":[]}',
    );
    expect(withResolvedPrices('{"id":"p","variants":[{"id":"v"},{"id":"w","sku":"x"}]}', undefined, (id) => `"${id}"`)).toBe(
      '{"id":"p","variants":[{"id":"v","resolvedPrice":"v"},{"id":"w","resolvedPrice":"w","sku":"x"}]}',
    );
  });
});
