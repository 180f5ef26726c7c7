import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify/sync';
import type { CsvParams } from '../../src/imports/csv.js';
import { layoutOf } from '../../src/imports/csv.js';
import { readCsvLines } from '../../src/imports/csv-source.js';
import { imageFieldKey, ShopifyProductWriter } from '../../src/platforms/index.js';
import type { Product } from '../../src/products/index.js';
import { productFixture } from './fixtures.js';

/**
 * A Shopify product CSV of N products and the NDJSON file of the same products, for `--csv-import`
 * (bench/csv-import.ts). The CSV is written by the Shopify export's own row writer (ShopifyProductWriter,
 * current header generation) and csv-stringify, as `GET /exports/products?format=shopify` writes it: 3
 * options of 2 values (8 variants, each with SKU, barcode, price, compare-at price, stock, grams and a
 * variant image), 9–11 images (so 1–3 image rows after the 8 variant rows), alt texts on the first two
 * images, and a product metafield column. The NDJSON file is the import lines the Shopify layout reads
 * from that CSV (src/imports/csv-source.ts), one per product: both imports apply exactly the same lines,
 * so their ratio is the cost of reading CSV.
 */

export const SHOPIFY_OPTIONS = [
  { name: 'Size', values: ['S', 'M'] },
  { name: 'Color', values: ['Red', 'Blue'] },
  { name: 'Material', values: ['Cotton', 'Linen'] },
];
export const METAFIELD_COLUMN = 'Color (product.metafields.shopify.color-pattern)';
const ALT_TEXT = 'Image alt text';

const money = (value: number) => Math.round(value * 100) / 100;
const combinations = SHOPIFY_OPTIONS.reduce<Record<string, string>[]>(
  (all, option) => all.flatMap((attributes) => option.values.map((value) => ({ ...attributes, [option.name]: value }))),
  [{}],
);

function variantsOf(i: number, price: number, images: string[]): Product['variants'] {
  return combinations.map((attributes, n) => ({
    attributes,
    barcode: String(400_000_000_000 + i * 8 + n),
    createdAt: '',
    customFields: {},
    id: '',
    image: images[n % 3],
    price: money(price + n),
    productId: '',
    salePrice: n % 2 === 0 ? money((price + n) * 1.25) : null,
    sku: `shopify-${i}-${n}`,
    stock: (i + n) % 50,
    updatedAt: '',
    weightGrams: 200 + n * 10,
  }));
}

/** Product i as the export reads it from the database (ids and times play no part in the CSV). */
export function shopifyProduct(i: number): Product {
  const fixture = productFixture(i);
  const images = Array.from({ length: 9 + (i % 3) }, (_, k) => `https://cdn.example.com/products/${i + 1}/${k + 1}.jpg`);
  return {
    attributeSet: null,
    averageRating: 0,
    badge: null,
    barcode: null,
    comparePrice: null,
    createdAt: '',
    customFields: {
      [METAFIELD_COLUMN]: i % 2 ? 'red; blue' : 'blue',
      [imageFieldKey(ALT_TEXT, 1)]: 'Front',
      [imageFieldKey(ALT_TEXT, 2)]: 'Back',
    },
    description: `<p>${fixture.description}</p>`,
    handle: `shopify-${i}`,
    id: '',
    image: images,
    metaDescription: fixture.metaDescription,
    metaKeywords: null,
    metaTitle: fixture.metaTitle,
    options: SHOPIFY_OPTIONS,
    price: null,
    productType: 'Apparel',
    returnConfig: { customReturnWindow: null, exchangeable: true, returnable: true, useGlobalConfig: true },
    salePrice: null,
    selectedCollection: [],
    sizeChart: null,
    sku: null,
    status: fixture.status,
    tags: ['bench', `group-${i % 20}`],
    title: fixture.title,
    totalReviews: 0,
    totalStock: null,
    updatedAt: '',
    variants: variantsOf(i, fixture.price, images),
    vendor: 'Bench Outfitters',
    weightGrams: null,
  };
}

async function put(out: WriteStream, text: string): Promise<void> {
  if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
}

/** The CSV of products 0..count-1; returns what a job needs to read it again (layout, delimiter, header). */
export async function writeShopifyCsv(path: string, count: number): Promise<CsvParams> {
  const writer = new ShopifyProductWriter(Object.keys(shopifyProduct(0).customFields));
  const out = createWriteStream(path);
  await put(out, stringify([writer.columns]));
  for (let i = 0; i < count; i++) await put(out, stringify(writer.rows(shopifyProduct(i))));
  out.end();
  await finished(out);
  return { layout: layoutOf(writer.columns, 'products', 'shopify').name, delimiter: ',', header: writer.columns };
}

/** The NDJSON file of the import lines the CSV's layout reads; throws on a line the layout refuses. */
export async function writeEquivalentNdjson(csvPath: string, params: CsvParams, path: string): Promise<number> {
  const out = createWriteStream(path);
  let lines = 0;
  for await (const line of readCsvLines(createReadStream(csvPath), 0, 1, params, 1024 * 1024)) {
    if (!('text' in line.read)) throw new Error(`the bench CSV's record ${line.line} does not read: ${line.read.message}`);
    await put(out, `${line.read.text}\n`);
    lines++;
  }
  out.end();
  await finished(out);
  return lines;
}
