import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../shared/canonical-json.js';
import { type ProductRow, toProductOutput, toVariantOutput, type VariantRow } from './products.sql.js';

/**
 * A product's stored document and its event carry JSON.stringify of the output, and its ETag is taken over
 * that text as if it were the canonical JSON: the outputs must be built in sorted key order, with a
 * variant's attributes (option names: any text) sorted too.
 */

const text = fc.string({ unit: 'grapheme', maxLength: 12 });
const money = fc.option(fc.integer({ min: 0, max: 10_000_000 }).map((cents) => (cents / 100).toFixed(2)));
const grams = fc.option(fc.integer({ min: 0, max: 100_000 }).map((tenths) => (tenths / 10).toString()));
// any key (jsonb hands keys out shortest first; outputs must sort them), values of the three kinds
const customFields = fc.dictionary(
  fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), fc.constantFrom('__proto__', 'constructor', 'shopify.Google: MPN')),
  fc.oneof(text, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean()),
  { maxKeys: 5 },
);
const date = fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true });

const variantRow = fc.record({
  id: text,
  product_id: text,
  attributes: fc.dictionary(fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), fc.constantFrom('__proto__', 'constructor')), text, {
    maxKeys: 4,
  }),
  price: money,
  sale_price: money,
  stock: fc.nat(),
  sku: fc.option(text),
  barcode: fc.option(text),
  weight_grams: grams,
  image: fc.option(text),
  custom_fields: customFields,
  created_at: date,
  updated_at: date,
}) as fc.Arbitrary<VariantRow>;

const productRow = fc.record({
  id: text,
  title: text,
  handle: text,
  description: fc.option(text),
  status: fc.constantFrom('active', 'disabled'),
  badge: fc.option(text),
  price: money,
  compare_price: money,
  total_stock: fc.option(fc.nat()),
  images: fc.array(text, { maxLength: 3 }),
  size_chart: fc.option(text),
  attribute_set_id: fc.option(text),
  options: fc.array(fc.record({ name: text, values: fc.array(text, { maxLength: 3 }) }), { maxLength: 3 }),
  meta_title: fc.option(text),
  meta_description: fc.option(text),
  meta_keywords: fc.option(text),
  return_config: fc.record(
    { returnable: fc.boolean(), customReturnWindow: fc.option(fc.nat()), useGlobalConfig: fc.boolean(), exchangeable: fc.boolean() },
    { requiredKeys: [] },
  ),
  average_rating: money.map((value) => value ?? '0'),
  total_reviews: fc.nat(),
  vendor: fc.option(text),
  product_type: fc.option(text),
  tags: fc.array(text, { maxLength: 3 }),
  sku: fc.option(text),
  barcode: fc.option(text),
  weight_grams: grams,
  custom_fields: customFields,
  created_at: date,
  updated_at: date,
}) as unknown as fc.Arbitrary<ProductRow>;

describe('product outputs', () => {
  it('JSON.stringify of a product is its canonical JSON', () => {
    fc.assert(
      fc.property(productRow, fc.array(variantRow, { maxLength: 4 }), fc.array(text, { maxLength: 3 }), (row, variants, collections) => {
        const product = toProductOutput(row, variants.map(toVariantOutput), collections);
        expect(JSON.stringify(product)).toBe(canonicalJson(product));
      }),
    );
  });
});
