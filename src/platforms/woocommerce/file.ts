import { numberCell } from '../lines.js';
import type { CsvHeader, CsvRecord } from '../types.js';
import { GRAMS_PER, type WooTarget, wooProductColumn } from './product-columns.js';

/**
 * A WooCommerce product file's columns (resolved once from its header) and the cell readers both its product
 * rows (products.ts) and its variation rows (variations.ts) use.
 */

export interface WooColumn {
  index: number;
  header: string;
}

export interface WooFile {
  by: Partial<Record<WooTarget, WooColumn>>;
  /** Attribute N: its name and value(s) columns, in N order */
  attributes: { name?: WooColumn; values?: WooColumn }[];
  weightUnit: number;
  /** every other column: customFields under its header */
  custom: WooColumn[];
}

export function resolveWooFile(header: CsvHeader): WooFile {
  const file: WooFile = { by: {}, attributes: [], weightUnit: 1, custom: [] };
  const numbered = new Map<number, { name?: WooColumn; values?: WooColumn }>();
  header.names.forEach((name, index) => {
    if (name.trim() === '' || header.index(name) !== index) return;
    const entry = wooProductColumn(name);
    const column = { index, header: name };
    if (!entry || file.by[entry.target]) {
      file.custom.push(column);
      return;
    }
    if (entry.target === 'attributeName' || entry.target === 'attributeValues') {
      const n = Number(/\d+/.exec(name)?.[0]);
      const slot = numbered.get(n) ?? {};
      slot[entry.target === 'attributeName' ? 'name' : 'values'] = column;
      numbered.set(n, slot);
      return;
    }
    if (entry.target === 'weight') file.weightUnit = GRAMS_PER[(/\((\w+)\)/.exec(name)?.[1] ?? 'g').toLowerCase()] ?? 1;
    file.by[entry.target] = column;
  });
  file.attributes = [...numbered.entries()].sort(([a], [b]) => a - b).map(([, slot]) => slot);
  return file;
}

export const wooCell = (record: CsvRecord, column: WooColumn | undefined) => (column ? (record.cells[column.index] ?? '').trim() : '');

/** A weight cell in grams, from the unit of its header. */
export function gramsOf(file: WooFile, record: CsvRecord): number | string | undefined {
  const weight = numberCell(wooCell(record, file.by.weight));
  return typeof weight === 'number' ? Math.round(weight * file.weightUnit * 1000) / 1000 : weight;
}

/** Sale price, when set, is the price, and Regular price the compare price; else Regular price is the price. */
export function pricesOf(
  file: WooFile,
  record: CsvRecord,
): { price?: unknown; compare?: unknown; priceColumn?: string; compareColumn?: string } {
  const regular = numberCell(wooCell(record, file.by.regularPrice));
  const sale = numberCell(wooCell(record, file.by.salePrice));
  if (sale === undefined) return { price: regular, priceColumn: file.by.regularPrice?.header };
  return { price: sale, compare: regular, priceColumn: file.by.salePrice?.header, compareColumn: file.by.regularPrice?.header };
}
