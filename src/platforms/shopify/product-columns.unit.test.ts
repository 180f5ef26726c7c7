import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CsvHeader } from '../types.js';
import { WOO_PRODUCT_COLUMNS, wooProductColumn } from '../woocommerce/product-columns.js';
import {
  imageFieldKey,
  marketPriceColumn,
  parseImageFieldKey,
  SHOPIFY_PRODUCT_COLUMNS,
  shopifyProductColumn,
  unlistedColumnLevel,
} from './product-columns.js';
import { shopifyProducts } from './products.js';

const doc = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'csv-import.md'), 'utf8');

describe('the WooCommerce product column table', () => {
  it('is the table docs/csv-import.md prints', () => {
    for (const column of WOO_PRODUCT_COLUMNS) expect(doc).toContain(`| ${column.lands} |`);
    expect(wooProductColumn('weight (LBS)')?.target).toBe('weight');
    expect(wooProductColumn('Attribute 12 value(s)')?.target).toBe('attributeValues');
    expect(wooProductColumn('Meta: _wpcom_is_markdown')).toBeUndefined();
  });
});

describe('the Shopify product column table', () => {
  it('is the table docs/csv-import.md prints: every column of both generations, row by row', () => {
    for (const column of SHOPIFY_PRODUCT_COLUMNS) {
      const cell = (name: string | null) => (name ? `\`${name}\`` : '—');
      expect(doc, `${column.legacy} / ${column.current}`).toContain(
        `| ${cell(column.legacy)} | ${cell(column.current)} | ${column.level} |`,
      );
    }
  });

  it('finds a column by either generation’s header, in any case', () => {
    expect(shopifyProductColumn('variant sku')).toBe(shopifyProductColumn('SKU'));
    expect(shopifyProductColumn(' Body (HTML) ')?.target).toBe('description');
    expect(shopifyProductColumn('Weight value (grams)')?.target).toBe('weightGrams');
    expect(shopifyProductColumn('Color (product.metafields.shopify.color-pattern)')).toBeUndefined();
  });

  it('levels unlisted columns: variant metafields per variant, the rest per product', () => {
    expect(unlistedColumnLevel('Variant Metafield: custom.color')).toBe('variant');
    expect(unlistedColumnLevel('Size (variant.metafields.custom.size)')).toBe('variant');
    expect(unlistedColumnLevel('Included / International')).toBe('product');
    expect(unlistedColumnLevel('Color (product.metafields.shopify.color-pattern)')).toBe('product');
  });

  it("reads a market price column's market and amount, in either generation's spelling", () => {
    expect(marketPriceColumn('Price / International')).toEqual({ market: 'International', kind: 'price' });
    expect(marketPriceColumn('Compare At Price / United States')).toEqual({ market: 'United States', kind: 'compareAt' });
    expect(marketPriceColumn('compare-at price / UK ')).toEqual({ market: 'UK', kind: 'compareAt' });
    expect(marketPriceColumn('Included / International')).toBeNull();
    expect(marketPriceColumn('Price')).toBeNull();
  });

  it('writes and reads per-image keys', () => {
    expect(imageFieldKey('Image Alt Text', 3)).toBe('Image Alt Text #3');
    expect(parseImageFieldKey('Image alt text #12')).toEqual({ header: 'Image alt text', n: 12 });
    expect(parseImageFieldKey('Cost per item')).toBeNull();
  });

  it('recognises either generation and names what a header lacks', () => {
    expect(shopifyProducts.missingColumns(new CsvHeader(['handle', 'TITLE']))).toEqual([]);
    expect(shopifyProducts.missingColumns(new CsvHeader(['Title', 'URL handle']))).toEqual([]);
    expect(shopifyProducts.missingColumns(new CsvHeader(['Name', 'SKU']))).toEqual(['Handle or URL handle', 'Title']);
  });
});
