import { type LineBuilder, listCell, numberCell, putKey } from '../lines.js';
import type { CsvRecord } from '../types.js';
import { gramsOf, pricesOf, type WooColumn, type WooFile, wooCell } from './products.js';

/** A variable product read earlier in the file: its handle and options, for its variations. */
export interface WooParent {
  handle: string;
  /** a product line always carries its title (an import line is checked as the POST body) */
  title: string;
  options: { name: string; values: string[] }[];
}

/**
 * The attribute combinations a variation row stands for: its value of each of the parent's options; an
 * option the row leaves empty (WooCommerce's "any") stands for every value of that option.
 */
function combinationsOf(file: WooFile, record: CsvRecord, parent: WooParent): Record<string, string>[] {
  const given = new Map<string, string>();
  for (const slot of file.attributes) {
    const name = wooCell(record, slot.name);
    const value = wooCell(record, slot.values);
    if (name && value) given.set(name.toLowerCase(), value);
  }
  let combinations: Record<string, string>[] = [{}];
  for (const option of parent.options) {
    const value = given.get(option.name.toLowerCase());
    const values = value === undefined ? option.values : [value];
    combinations = combinations.flatMap((combination) => values.map((v) => ({ ...combination, [option.name]: v })));
  }
  return combinations;
}

/** The columns a variation's fields come from; every other non-empty cell goes to its customFields. */
const structural = (file: WooFile): (WooColumn | undefined)[] => [
  file.by.type,
  file.by.parent,
  file.by.name,
  file.by.slug,
  file.by.sku,
  file.by.regularPrice,
  file.by.salePrice,
  file.by.stock,
  file.by.weight,
  file.by.images,
  file.by.categories,
  file.by.tags,
  ...file.attributes.flatMap((slot) => [slot.name, slot.values]),
];

/** The variant fields of a run of variation rows of one parent: `variants` entries, one per combination. */
export function readVariations(file: WooFile, line: LineBuilder, records: readonly CsvRecord[], parent: WooParent): void {
  const skip = new Set(structural(file).flatMap((column) => (column ? [column.index] : [])));
  const variants: Record<string, unknown>[] = [];
  for (const record of records) {
    const { price, compare, priceColumn, compareColumn } = pricesOf(file, record);
    const customFields: Record<string, string> = {};
    record.cells.forEach((raw, index) => {
      const cell = raw.trim();
      const header = (file.custom.find((column) => column.index === index) ?? Object.values(file.by).find((c) => c?.index === index))
        ?.header;
      if (cell !== '' && header !== undefined && !skip.has(index)) putKey(customFields, header, cell);
    });
    const fields: [string, unknown, string | undefined][] = [
      ['sku', wooCell(record, file.by.sku) || undefined, file.by.sku?.header],
      ['price', price, priceColumn],
      ['salePrice', compare, compareColumn],
      ['stock', numberCell(wooCell(record, file.by.stock)), file.by.stock?.header],
      ['weightGrams', gramsOf(file, record), file.by.weight?.header],
      ['image', listCell(wooCell(record, file.by.images))?.[0], file.by.images?.header],
    ];
    for (const attributes of combinationsOf(file, record, parent)) {
      const path = `variants[${variants.length}].`;
      const entry: Record<string, unknown> = { attributes };
      line.source(`${path}attributes`, record.line, file.attributes[0]?.values?.header);
      for (const [name, value, column] of fields) {
        if (value === undefined) continue;
        entry[name] = value;
        line.source(`${path}${name}`, record.line, column);
      }
      if (Object.keys(customFields).length > 0) entry.customFields = customFields;
      for (const key of Object.keys(customFields)) line.source(`${path}customFields.${key}`, record.line, key);
      variants.push(entry);
    }
  }
  line.value.variants = variants;
}
