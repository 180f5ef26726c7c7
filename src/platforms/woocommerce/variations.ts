import { toSlug } from '../../shared/index.js';
import { generateSku, type LineBuilder, listCell, numberCell, putKey } from '../lines.js';
import type { CsvRecord } from '../types.js';
import { gramsOf, pricesOf, type WooColumn, type WooFile, wooCell } from './file.js';

/** A variable product read earlier in the file: its handle, its attributes, and the variations read so far. */
export interface WooParent {
  handle: string;
  /** a product line always carries its title (an import line is checked as the POST body) */
  title: string;
  /** the variable row's attributes (names and values), from which the variations' options are taken */
  attributes: { name: string; values: string[] }[];
  /** every variation of the parent read so far, in file order: each variation line states them all */
  variations: Variation[];
}

/** One variation row, read: the values it gives its attributes (by lower-cased name) and its variant fields. */
interface Variation {
  line: number;
  given: Map<string, string>;
  sku: string | undefined;
  fields: [string, unknown, string | undefined][];
  customFields: Record<string, string>;
  /** the header of its SKU and of its first attribute value column (where its warnings point) */
  skuColumn: string | undefined;
  attributeColumn: string | undefined;
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

function readVariation(file: WooFile, record: CsvRecord): Variation {
  const skip = new Set(structural(file).flatMap((column) => (column ? [column.index] : [])));
  const headers = new Map([...file.custom, ...Object.values(file.by)].flatMap((column) => (column ? [[column.index, column.header]] : [])));
  const customFields: Record<string, string> = {};
  record.cells.forEach((raw, index) => {
    const cell = raw.trim();
    const header = headers.get(index);
    if (cell !== '' && header !== undefined && !skip.has(index)) putKey(customFields, header, cell);
  });
  const given = new Map<string, string>();
  for (const slot of file.attributes) {
    const name = wooCell(record, slot.name);
    const value = wooCell(record, slot.values);
    if (name && value) given.set(name.toLowerCase(), value);
  }
  const { price, compare, priceColumn, compareColumn } = pricesOf(file, record);
  const fields: [string, unknown, string | undefined][] = [
    ['price', price, priceColumn],
    ['salePrice', compare, compareColumn],
    ['stock', numberCell(wooCell(record, file.by.stock)), file.by.stock?.header],
    ['weightGrams', gramsOf(file, record), file.by.weight?.header],
    ['image', listCell(wooCell(record, file.by.images))?.[0], file.by.images?.header],
  ];
  const sku = wooCell(record, file.by.sku) || undefined;
  return {
    line: record.line,
    given,
    sku,
    fields,
    customFields,
    skuColumn: file.by.sku?.header,
    attributeColumn: file.attributes[0]?.values?.header,
  };
}

/** The options: the parent's attributes that some variation names (one every variation leaves "any" is no option). */
const optionsOf = (parent: WooParent) =>
  parent.attributes.filter((attribute) => parent.variations.some((variation) => variation.given.has(attribute.name.toLowerCase())));

/** The combinations a variation stands for: its value of each option; an option it leaves "any", every value. */
function combinationsOf(variation: Variation, options: WooParent['attributes']): Record<string, string>[] {
  let combinations: Record<string, string>[] = [{}];
  for (const option of options) {
    const value = variation.given.get(option.name.toLowerCase());
    const values = value === undefined ? option.values : [value];
    combinations = combinations.flatMap((combination) => values.map((v) => ({ ...combination, [option.name]: v })));
  }
  return combinations;
}

/**
 * Each variation's variants (CONTRACT §10.4): a variation that names every option is one variant; one that
 * leaves an option "any" is one variant per value no other variation covers (variations naming more options
 * claim their combinations first, then file order). Returned in file order of the variations.
 */
function claimed(parent: WooParent, options: WooParent['attributes']): Map<Variation, Record<string, string>[]> {
  const anys = (variation: Variation) => options.filter((option) => !variation.given.has(option.name.toLowerCase())).length;
  const order = [...parent.variations].sort((a, b) => anys(a) - anys(b));
  const taken = new Set<string>();
  const result = new Map<Variation, Record<string, string>[]>();
  for (const variation of order) {
    const own = combinationsOf(variation, options).filter((combination) => !taken.has(JSON.stringify(combination)));
    for (const combination of own) taken.add(JSON.stringify(combination));
    result.set(variation, own);
  }
  return result;
}

/**
 * The line of a run of variation rows of one parent: the parent's options and every variant of every
 * variation read so far, exactly (`variantsExactly`), so the product has the variants the file lists and no
 * other combination. Values the line makes up (a SKU per "any" value, a SKU the file does not give) are
 * warnings of this run's rows.
 */
export function readVariations(file: WooFile, line: LineBuilder, records: readonly CsvRecord[], parent: WooParent): void {
  const fresh = new Set(records.map((record) => record.line));
  parent.variations.push(...records.map((record) => readVariation(file, record)));
  const options = optionsOf(parent);
  const variants: Record<string, unknown>[] = [];
  for (const [variation, combinations] of claimed(parent, options)) {
    const open = options.filter((option) => !variation.given.has(option.name.toLowerCase()));
    for (const attributes of combinations) {
      const path = `variants[${variants.length}].`;
      const entry: Record<string, unknown> = { attributes };
      line.source(`${path}attributes`, variation.line, variation.attributeColumn);
      for (const [name, value, column] of variation.fields) {
        if (value === undefined) continue;
        entry[name] = value;
        line.source(`${path}${name}`, variation.line, column);
      }
      entry.sku = skuOf(line, variation, open, attributes, path, fresh.has(variation.line));
      if (Object.keys(variation.customFields).length > 0) entry.customFields = variation.customFields;
      for (const key of Object.keys(variation.customFields)) line.source(`${path}customFields.${key}`, variation.line, key);
      variants.push(entry);
    }
  }
  line.value.options = options.map((option) => ({ name: option.name, values: option.values }));
  line.value.variants = variants;
  line.value.variantsExactly = true;
}

/**
 * A variant's SKU: the variation's, made unique with the slugs of the values it stood for as "any" (each a
 * VALUE_GENERATED warning), or the store's own when the variation gives none; `warn`: the variation is
 * one of this line's rows (an earlier line said its warnings already).
 */
function skuOf(
  line: LineBuilder,
  variation: Variation,
  open: WooParent['attributes'],
  attributes: Record<string, string>,
  path: string,
  warn: boolean,
): string | undefined {
  const at = { line: variation.line, column: variation.skuColumn ?? null };
  if (variation.sku === undefined) return generateSku(line, path, attributes, at, warn);
  line.source(`${path}sku`, variation.line, variation.skuColumn);
  if (open.length === 0) return variation.sku;
  const sku = [variation.sku, ...open.map((option) => toSlug(attributes[option.name]))].join('-');
  const names = open.map((option) => option.name).join(', ');
  const values = open.map((option) => `${option.name} "${attributes[option.name]}"`).join(', ');
  const message = `The variation "${variation.sku}" stands for any ${names}: the variant of ${values} got the SKU "${sku}"`;
  if (warn) line.warn('VALUE_GENERATED', `${path}sku`, message, at);
  return sku;
}
