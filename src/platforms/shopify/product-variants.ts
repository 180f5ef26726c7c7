import { isBelowPrice } from '../../shared/index.js';
import { generateSku, type LineBuilder, numberCell, putKey, putKeys } from '../lines.js';
import type { CsvRecord, MarketCell, MarketPrice } from '../types.js';
import { INVENTORY_TRACKER, imageFieldKey, type ShopifyTarget } from './product-columns.js';
import { cellOf, type FileColumn, type ShopifyFile } from './product-file.js';

/** The variant columns and the field each sets: on a variant, and on a simple product. */
const VARIANT_FIELDS: readonly { target: ShopifyTarget; variant: string; simple: string | null; number: boolean }[] = [
  { target: 'sku', variant: 'sku', simple: 'sku', number: false },
  { target: 'price', variant: 'price', simple: 'price', number: true },
  { target: 'salePrice', variant: 'salePrice', simple: 'comparePrice', number: true },
  { target: 'stock', variant: 'stock', simple: 'totalStock', number: true },
  { target: 'barcode', variant: 'barcode', simple: 'barcode', number: false },
  { target: 'weightGrams', variant: 'weightGrams', simple: 'weightGrams', number: true },
  // a simple product has no variant to carry an image of its own: the cell goes to its customFields
  { target: 'image', variant: 'image', simple: null, number: false },
];

/** The product's images, in Image Position order (file order for equal or missing positions), with per-image cells. */
export function readImages(file: ShopifyFile, line: LineBuilder, records: readonly CsvRecord[], fields: Record<string, unknown>): void {
  const perImage = file.custom.filter((column) => column.level === 'image');
  const found = records.flatMap((record, order) => {
    const src = cellOf(record, file.by.imageSrc);
    if (src === '') return [];
    const position = numberCell(cellOf(record, file.by.imagePosition));
    return [{ src, record, order, position: typeof position === 'number' ? position : Number.POSITIVE_INFINITY }];
  });
  if (found.length === 0) return;
  found.sort((a, b) => a.position - b.position || a.order - b.order);
  line.value.images = found.map((image) => image.src);
  found.forEach((image, i) => {
    line.source(`images[${i}]`, image.record.line, file.by.imageSrc?.header);
    for (const column of perImage) {
      const cell = cellOf(image.record, column);
      if (cell === '') continue;
      const key = imageFieldKey(column.key, i + 1);
      putKey(fields, key, cell);
      line.source(`customFields.${key}`, image.record.line, column.header);
    }
  });
  line.source('images', found[0].record.line, file.by.imageSrc?.header);
}

const isSimple = (names: string[], first: CsvRecord, file: ShopifyFile) =>
  names.length === 0 ||
  (names.length === 1 &&
    names[0].toLowerCase() === 'title' &&
    ['default title', ''].includes(cellOf(first, file.options[0].value).toLowerCase()));

/**
 * Shopify takes a compare-at price at or below the price (and shows no sale); Storefront requires the
 * compare price to be at least the price. Such a cell is kept in customFields under its header instead,
 * so the product imports and the cell is not lost.
 */
function keepLowCompareAt(
  values: Record<string, unknown>,
  custom: Record<string, unknown>,
  file: ShopifyFile,
  line: LineBuilder,
  record: CsvRecord,
  path: string,
  simple: boolean,
): void {
  const name = simple ? 'comparePrice' : 'salePrice';
  const compare = values[name];
  const column = file.by.salePrice;
  if (typeof compare !== 'number' || typeof values.price !== 'number' || compare >= values.price || !column) return;
  delete values[name];
  custom[column.key] = cellOf(record, column);
  line.sources.delete(`${path}${name}`);
  line.source(`${path}customFields.${column.key}`, record.line, column.header);
}

/**
 * A variant whose file gives no inventory tracker (an empty cell, or no such column: Shopify's template and
 * partner samples) keeps that as an empty tracker cell: its stock is not counted by Shopify, so the Shopify
 * export invents no tracker for it and writes a quantity only when there is one (products-export.ts;
 * docs/decisions.md, "Inventory tracker"). A record without the key (created through the API) is counted.
 */
function keepUntracked(custom: Record<string, unknown>): void {
  custom[INVENTORY_TRACKER] ??= '';
}

/** The variant-level cells of a record: its fields (under `path`) and its customFields. */
function variantCells(file: ShopifyFile, line: LineBuilder, record: CsvRecord, path: string, simple: boolean) {
  const values: Record<string, unknown> = {};
  const custom: Record<string, unknown> = {};
  for (const field of VARIANT_FIELDS) {
    const column = file.by[field.target];
    const cell = cellOf(record, column);
    if (cell === '' || !column) continue;
    const name = simple ? field.simple : field.variant;
    if (name === null) {
      custom[column.key] = cell;
      line.source(`${path}customFields.${column.key}`, record.line, column.header);
      continue;
    }
    values[name] = field.number ? numberCell(cell) : cell;
    line.source(`${path}${name}`, record.line, column.header);
  }
  keepLowCompareAt(values, custom, file, line, record, path, simple);
  for (const column of file.custom) {
    const cell = cellOf(record, column);
    if (column.level !== 'variant' || cell === '') continue;
    putKey(custom, column.key, cell);
    line.source(`${path}customFields.${column.key}`, record.line, column.header);
  }
  keepUntracked(custom);
  return { values, custom };
}

/**
 * A record's cells in the market price columns: one entry per market with a cell (sku null: a simple product).
 * A compare-at price below the market's price is not imported (the price list would refuse it; Shopify shows
 * no sale then): said here, VALUE_CHANGED at its cell, and left out when the prices are set (src/imports/market-prices.ts).
 */
function marketPricesOf(file: ShopifyFile, line: LineBuilder, record: CsvRecord, sku: string | null): MarketPrice[] {
  const cell = (column: FileColumn | undefined): MarketCell | null => {
    const text = cellOf(record, column);
    return column && text !== '' ? { text, line: record.line, column: column.header } : null;
  };
  return [...file.markets.values()].flatMap((slot) => {
    const price = cell(slot.price);
    const compareAt = cell(slot.compareAt);
    if (!price && !compareAt) return [];
    const header = slot.price?.header ?? `Price / ${slot.market}`;
    if (price && compareAt && isBelowPrice(compareAt.text, price.text)) {
      const message = `${compareAt.column} ${compareAt.text} is below ${price.column} ${price.text}: the compare-at price was not imported`;
      line.warn('VALUE_CHANGED', compareAt.column, message, compareAt);
    }
    return [{ market: slot.market, sku, price: price ?? { text: '', line: record.line, column: header }, compareAt }];
  });
}

/**
 * The options and variants (or a simple product's own fields). Option names come from the first record;
 * a record with an option value is a variant, one without is an image row.
 */
export function readVariants(
  file: ShopifyFile,
  line: LineBuilder,
  records: readonly CsvRecord[],
  fields: Record<string, unknown>,
): MarketPrice[] {
  const first = records[0];
  const slots = file.options.filter((slot): slot is { name: FileColumn; value?: FileColumn } => cellOf(first, slot.name) !== '');
  const names = slots.map((slot) => cellOf(first, slot.name));
  if (isSimple(names, first, file)) {
    const { values, custom } = variantCells(file, line, first, '', true);
    Object.assign(line.value, values);
    putKeys(fields, custom);
    return marketPricesOf(file, line, first, null);
  }
  const markets: MarketPrice[] = [];
  const optionValues = names.map(() => new Map<string, number>());
  const variants: Record<string, unknown>[] = [];
  slots.forEach((slot, i) => {
    line.source(`options[${i}]`, first.line, slot.name.header);
  });
  for (const record of records) {
    const cells = slots.map((slot) => cellOf(record, slot.value));
    if (cells.every((cell) => cell === '')) continue;
    const path = `variants[${variants.length}].`;
    const attributes: Record<string, string> = {};
    cells.forEach((cell, i) => {
      if (cell === '') return;
      putKey(attributes, names[i], cell);
      if (!optionValues[i].has(cell)) {
        optionValues[i].set(cell, optionValues[i].size);
        line.source(`options[${i}].values[${optionValues[i].size - 1}]`, record.line, slots[i].value?.header);
      }
    });
    line.source(`${path}attributes`, record.line, slots[0].value?.header);
    const { values, custom } = variantCells(file, line, record, path, false);
    values.sku ??= generateSku(line, path, attributes, { line: record.line, column: file.by.sku?.header ?? null });
    markets.push(...marketPricesOf(file, line, record, String(values.sku)));
    variants.push({ attributes, ...values, ...(Object.keys(custom).length > 0 ? { customFields: custom } : {}) });
  }
  line.value.options = names.map((name, i) => ({ name, values: [...optionValues[i].keys()] }));
  // exactly the combinations the rows list (CONTRACT §10.4): never one the file does not have
  line.value.variants = variants;
  line.value.variantsExactly = true;
  return markets;
}
