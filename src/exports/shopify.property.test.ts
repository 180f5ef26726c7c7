import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { importCsv, propertyRuns } from '../../test/support/csv.fixtures.js';

/**
 * A property over generated catalogs: any store's products exported with format=shopify and imported into
 * another store are the same products (ids and timestamps aside): the export writes what the import reads.
 * 12 catalogs a run (FUZZ_RUNS overrides, FUZZ_SEED replays a failure).
 */
const RUNS = propertyRuns(12);

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(async () => t?.close());

// Text with what CSV must quote (commas, quotes, line breaks) and what it need not.
const word = fc.stringMatching(/^[A-Za-z][a-z0-9]{0,7}$/);
const text = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ,"'.;-]{0,30}[A-Za-z0-9.]$/);
const description = fc.stringMatching(/^[<>a-z ,"\n]{1,40}[a-z>]$/);
const money = fc.integer({ min: 0, max: 100_000 }).map((cents) => cents / 100);
const url = word.map((name) => `https://cdn.example.com/${name}.jpg`);
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

const sellable = {
  sku: optional(fc.stringMatching(/^[A-Z]{2,4}-[0-9]{1,4}$/)),
  barcode: optional(fc.stringMatching(/^[0-9]{8,13}$/)),
  weightGrams: optional(fc.integer({ min: 0, max: 50_000 })),
};

const options = fc.uniqueArray(
  fc.record({ name: word, values: fc.uniqueArray(word, { minLength: 1, maxLength: 3, selector: (v) => v.toLowerCase() }) }),
  { maxLength: 3, selector: (option) => option.name.toLowerCase() },
);

const product = fc
  .record({
    title: text,
    description: optional(description),
    vendor: optional(text),
    productType: optional(text),
    tags: fc.uniqueArray(word, { maxLength: 4, selector: (tag) => tag.toLowerCase() }),
    status: fc.constantFrom('active', 'disabled'),
    images: fc.uniqueArray(url, { maxLength: 3 }),
    options,
    price: optional(money),
    comparePrice: optional(money),
    totalStock: optional(fc.nat(1000)),
    ...sellable,
    variant: fc.record({ price: optional(money), salePrice: optional(money), stock: fc.nat(1000), image: optional(url), ...sellable }),
  })
  .map(({ variant: generated, options: opts, sku, barcode, weightGrams, price, comparePrice: extra, totalStock, ...rest }) => {
    const drop = (value: object) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
    // a compare-at price is at least the price
    const above = (base: number | undefined, more: number | undefined) =>
      more === undefined ? undefined : Math.round(((base ?? 0) + more) * 100) / 100;
    const comparePrice = above(price, extra);
    const variant = { ...generated, salePrice: above(generated.price, generated.salePrice) };
    if (opts.length === 0) return drop({ ...rest, sku, barcode, weightGrams, price, comparePrice, totalStock });
    // every combination the options generate gets the generated variant's fields, its SKU made unique
    const combinations = opts.reduce<Record<string, string>[]>(
      (all, option) => all.flatMap((attributes) => option.values.map((value) => ({ ...attributes, [option.name]: value }))),
      [{}],
    );
    const variants = combinations.map((attributes, i) => drop({ ...variant, attributes, sku: variant.sku && `${variant.sku}-${i}` }));
    return drop({ ...rest, options: opts, variants });
  });

/** What a product is, without what another store gives it anew (ids, timestamps, derived totals). */
function shape(record: Record<string, unknown>) {
  const variants = (record.variants as Record<string, unknown>[]).map((variant) => ({
    attributes: variant.attributes,
    sku: variant.sku,
    price: variant.price,
    salePrice: variant.salePrice,
    stock: variant.stock,
    barcode: variant.barcode,
    weightGrams: variant.weightGrams,
    image: variant.image,
  }));
  const simple = variants.length === 0;
  return {
    handle: record.handle,
    title: record.title,
    description: record.description,
    vendor: record.vendor,
    productType: record.productType,
    tags: record.tags,
    status: record.status,
    options: record.options,
    image: record.image,
    variants: variants.sort((a, b) => JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes))),
    ...(simple
      ? {
          sku: record.sku,
          price: record.price,
          comparePrice: record.comparePrice,
          totalStock: record.totalStock,
          barcode: record.barcode,
          weightGrams: record.weightGrams,
        }
      : {}),
  };
}

async function catalog(store: TestStore) {
  const reply = await t.app.inject({ method: 'GET', url: '/api/v1/exports/products', headers: { authorization: `Bearer ${store.token}` } });
  return reply.body
    .split('\n')
    .filter(Boolean)
    .map((line) => shape(JSON.parse(line)))
    .sort((a, b) => String(a.handle).localeCompare(String(b.handle)));
}

describe('generated catalogs survive format=shopify into another store', () => {
  it(`(${RUNS.numRuns} catalogs)`, { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(product, { minLength: 1, maxLength: 4 }), async (products) => {
        const from = await t.newStore();
        for (const body of products) {
          const created = await t.call(from, 'POST', '/products', body);
          expect(created.status, JSON.stringify(created.body)).toBe(201);
        }
        const exported = await t.app.inject({
          method: 'GET',
          url: '/api/v1/exports/products?format=shopify',
          headers: { authorization: `Bearer ${from.token}` },
        });
        const to = await t.newStore();
        const { job, errors } = await importCsv(t, to, 'products', exported.body);
        expect(errors).toEqual([]);
        expect(job).toMatchObject({ status: 'succeeded', created: products.length, failed: 0 });
        expect(await catalog(to)).toEqual(await catalog(from));
      }),
      RUNS,
    );
  });
});
