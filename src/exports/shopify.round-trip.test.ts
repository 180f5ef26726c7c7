import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { csvFixture, importCsv, shopifyExport } from '../../test/support/csv.fixtures.js';
import { shopifyProductColumn, unlistedColumnLevel } from '../platforms/index.js';

/**
 * CONTRACT 10.3's round trips. Products: a Shopify product CSV imported and exported with format=shopify
 * gives back every non-empty cell of the original, in either header generation (numbers compared as
 * numbers, booleans as booleans, tags as the product keeps them). Customers and orders: the export
 * re-imported into the same store changes nothing, and into another store gives the same records.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(async () => t?.close());

const exportCsv = (store: TestStore, resource: string) => shopifyExport(t, store, resource);

const ndjsonExport = async (store: TestStore, resource: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/v1/exports/${resource}`, headers: { authorization: `Bearer ${store.token}` } })).body
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

/** A cell as the contract compares it: a number as a number, a boolean as a boolean, else its text. */
function comparable(cell: string): string | number | boolean {
  if (/^(true|false)$/i.test(cell)) return cell.toLowerCase() === 'true';
  const number = Number(cell);
  return cell.trim() !== '' && Number.isFinite(number) ? number : cell;
}

/** A column's name in the current generation (the table's), or the header itself for an unlisted column. */
const canonical = (header: string) => {
  const entry = shopifyProductColumn(header);
  return (entry ? (entry.current ?? entry.legacy) : header.trim()) as string;
};

interface ProductCells {
  product: Map<string, unknown>;
  /** option values joined → that variant's cells */
  variants: Map<string, Map<string, unknown>>;
  /** image URLs in position order, each with its image-level cells */
  images: { src: string; cells: Map<string, unknown> }[];
}

/** A Shopify product CSV as what it says: per handle, the product's, each variant's and each image's cells. */
function meaning(csv: string): Map<string, ProductCells> {
  const [header, ...rows] = parse(csv, { bom: true }) as string[][];
  const columns = header.map((name) => {
    const entry = shopifyProductColumn(name);
    return { name: canonical(name), target: entry?.target, level: entry?.level ?? unlistedColumnLevel(name) };
  });
  const at = (target: string) => columns.findIndex((column) => column.target === target);
  const [handle, src, position] = [at('handle'), at('imageSrc'), at('imagePosition')];
  const optionNames = columns.flatMap((column, i) => (column.target === 'optionName' ? [i] : []));
  const optionValues = columns.flatMap((column, i) => (column.target === 'optionValue' ? [i] : []));
  const products = new Map<string, ProductCells>();
  for (const row of rows) {
    const key = row[handle].trim().toLowerCase();
    const isFirst = !products.has(key);
    const entry: ProductCells = products.get(key) ?? { product: new Map(), variants: new Map(), images: [] };
    products.set(key, entry);
    const variantKey = optionValues.map((i) => row[i].trim()).join(' | ');
    const isVariant = variantKey.replaceAll(' | ', '') !== '';
    const cells = (level: string) => {
      if (level === 'variant') {
        if (!entry.variants.has(variantKey)) entry.variants.set(variantKey, new Map());
        return entry.variants.get(variantKey) as Map<string, unknown>;
      }
      return entry.product;
    };
    if (row[src]?.trim()) entry.images.push({ src: row[src].trim(), cells: new Map([['position', Number(row[position]) || 0]]) });
    columns.forEach((column, i) => {
      const cell = row[i]?.trim() ?? '';
      if (cell === '' || i === handle || i === src || i === position || optionValues.includes(i) || optionNames.includes(i)) return;
      // a quantity of 0 is what no quantity imports as (the export writes none for a record its source did not track)
      if (column.target === 'stock' && comparable(cell) === 0) return;
      if (column.level === 'image') (entry.images.at(-1) as { cells: Map<string, unknown> }).cells.set(column.name, comparable(cell));
      else if (column.level === 'variant' && isVariant) cells('variant').set(column.name, comparable(cell));
      else if (column.level === 'product' && isFirst) entry.product.set(column.name, comparable(cell));
    });
    if (isFirst) entry.product.set('options', optionNames.map((i) => row[i].trim()).filter(Boolean));
  }
  for (const entry of products.values()) {
    entry.images.sort((a, b) => (a.cells.get('position') as number) - (b.cells.get('position') as number));
    for (const image of entry.images) image.cells.delete('position');
    // tags as the product keeps them: trimmed, unique case-insensitively
    const tags = entry.product.get('Tags');
    if (typeof tags === 'string') entry.product.set('Tags', [...new Set(tags.split(',').map((tag) => tag.trim().toLowerCase()))].sort());
  }
  return products;
}

/** Every non-empty cell of `original` is in `exported`, with the same meaning. */
function expectEveryCellBack(original: string, exported: string): number {
  const before = meaning(original);
  const after = meaning(exported);
  let cells = 0;
  for (const [handle, product] of before) {
    const back = after.get(handle);
    expect(back, handle).toBeDefined();
    for (const [column, value] of product.product) {
      expect([handle, column, back?.product.get(column)]).toEqual([handle, column, value]);
      cells++;
    }
    for (const [key, variant] of product.variants) {
      for (const [column, value] of variant) {
        expect([handle, key, column, back?.variants.get(key)?.get(column)]).toEqual([handle, key, column, value]);
        cells++;
      }
    }
    expect(back?.images.map((image) => image.src)).toEqual(product.images.map((image) => image.src));
    product.images.forEach((image, i) => {
      for (const [column, value] of image.cells) {
        expect([handle, image.src, column, back?.images[i]?.cells.get(column)]).toEqual([handle, image.src, column, value]);
        cells++;
      }
    });
  }
  return cells;
}

describe('products: a Shopify CSV imported, exported with format=shopify, gives every cell back', () => {
  it.each(['shopify-current.csv', 'shopify-legacy-template.csv'])('%s', async (fixture) => {
    const store = await t.newStore();
    const original = csvFixture(fixture);
    const { job, errors } = await importCsv(t, store, 'products', original);
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ status: 'succeeded', failed: 0 });
    const exported = await exportCsv(store, 'products');
    expect(expectEveryCellBack(original, exported)).toBeGreaterThan(50);
    // and the export is itself a Shopify file the import takes again, changing nothing
    const again = await importCsv(t, store, 'products', exported);
    expect(again.errors).toEqual([]);
    expect(again.job).toMatchObject({ status: 'succeeded', created: 0, failed: 0 });
  });
});

/** The records of a store as the NDJSON export shows them, without what another store gives them anew. */
const portable = (records: Record<string, unknown>[]) => records.map(({ id, updatedAt, createdAt, userId, ...rest }) => rest);

describe.each([
  ['customers', ['shopify-customers.csv', 'shopify-customers-legacy.csv']],
  ['orders', ['shopify-orders.csv']],
] as const)('%s: the export re-imports with nothing changed', (resource, fixtures) => {
  it.each(fixtures)('%s', async (fixture) => {
    const store = await t.newStore();
    const first = await importCsv(t, store, resource, csvFixture(fixture));
    expect(first.errors).toEqual([]);
    expect(first.job).toMatchObject({ status: 'succeeded', failed: 0 });
    const records = await ndjsonExport(store, resource);
    expect(records.length).toBe(first.job.created);
    const exported = await exportCsv(store, resource);

    const again = await importCsv(t, store, resource, exported);
    expect(again.errors).toEqual([]);
    expect(again.job).toMatchObject({ status: 'succeeded', created: 0, updated: records.length, failed: 0 });
    expect(await ndjsonExport(store, resource)).toEqual(records);

    const other = await t.newStore();
    const moved = await importCsv(t, other, resource, exported);
    expect(moved.errors).toEqual([]);
    expect(moved.job).toMatchObject({ status: 'succeeded', created: records.length, failed: 0 });
    const there = await ndjsonExport(other, resource);
    expect(portable(there)).toEqual(portable(records));
    if (resource === 'orders') expect(there.map((order) => order.createdAt)).toEqual(records.map((order) => order.createdAt));
  });
});
