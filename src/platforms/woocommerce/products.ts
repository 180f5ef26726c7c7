import { invalidField, validationError } from '../../errors.js';
import { MAX_VARIANTS } from '../../products/index.js';
import { suppliedSlug, toSlug } from '../../shared/index.js';
import { groupingReader, LineBuilder, listCell, missingOf, numberCell, ProductBlocks, putKey, setHandle } from '../lines.js';
import type { CsvLayout, CsvRecord, LayoutLine } from '../types.js';
import { gramsOf, pricesOf, resolveWooFile, type WooColumn, type WooFile, wooCell } from './file.js';
import { readVariations, type WooParent } from './variations.js';

/**
 * WooCommerce's product CSV (its exporter's columns; product-columns.ts says where each lands). A
 * `simple` row (or grouped, external) is a product; a `variable` row is a product whose Attribute columns
 * make its options; `variation` rows name their variable product in `Parent` (`id:<ID>` or its SKU) and
 * become the variant fields of that product: consecutive variations of one parent make one line.
 */

const typeOf = (file: WooFile, record: CsvRecord) => wooCell(record, file.by.type).toLowerCase();
const isVariation = (file: WooFile, record: CsvRecord) => /\bvariation\b/.test(typeOf(file, record));

/** Categories: `A > B, C` → [[A, B], [C]]. */
const categoriesOf = (cell: string) =>
  (listCell(cell) ?? []).map((path) =>
    path
      .split('>')
      .map((title) => title.trim())
      .filter(Boolean),
  );

/** What one file's reader remembers: its variable products (for their variations), the ID each name-slug was first given to. */
interface WooMemory {
  parents: Map<string, WooParent>;
  slugOwners: Map<string, string>;
  /** the products given so far: a product row seen again after others is an error (one block per product) */
  blocks: ProductBlocks;
}

/**
 * The handle of a product without a Slug cell: the slug of its Name; when an earlier product of the file
 * (another `ID`) already has that slug, the slug plus `-<ID>`, so the later product does not overwrite the
 * earlier one. Derived from the file alone (its order and IDs), so re-importing it finds the same products.
 */
function nameHandle(name: string, id: string, slugOwners: Map<string, string>): string {
  const slug = suppliedSlug(name);
  const owner = slugOwners.get(slug);
  if (owner === undefined) slugOwners.set(slug, id);
  if (owner === undefined || owner === id || id === '') return slug;
  // cut the name's part, not the ID's, so a long name keeps its suffix within the handle's 255 characters
  return `${suppliedSlug(slug.slice(0, 240))}-${toSlug(id)}`;
}

function productLine(file: WooFile, record: CsvRecord, { parents, slugOwners, blocks }: WooMemory): LayoutLine {
  const line = new LineBuilder(record);
  const { by } = file;
  const at = (field: string, value: unknown, column: WooColumn | undefined) => line.set(field, value, record.line, column?.header);
  const name = wooCell(record, by.name);
  const slug = wooCell(record, by.slug);
  if (slug && by.slug) setHandle(line, slug, { line: record.line, column: by.slug.header });
  else at('handle', name ? nameHandle(name, wooCell(record, by.id), slugOwners) : undefined, by.name);
  at('title', name || undefined, by.name);
  const description = by.description ? (record.cells[by.description.index] ?? '') : '';
  at('description', description.trim() === '' ? undefined : description, by.description);
  const published = wooCell(record, by.published);
  at('status', published === '' ? undefined : published === '1' ? 'active' : 'disabled', by.published);
  at('tags', listCell(wooCell(record, by.tags)), by.tags);
  at('images', listCell(wooCell(record, by.images)), by.images);
  const customFields: Record<string, unknown> = {};
  const keep = (column: WooColumn | undefined) => {
    const cell = wooCell(record, column);
    if (!column || cell === '') return;
    putKey(customFields, column.header, cell);
    line.source(`customFields.${column.header}`, record.line, column.header);
  };
  for (const column of [...file.custom, by.id, by.type, by.published]) keep(column);
  const { price, compare, priceColumn, compareColumn } = pricesOf(file, record);
  line.set('price', price, record.line, priceColumn);
  line.set('comparePrice', compare, record.line, compareColumn);
  const variable = /\bvariable\b/.test(typeOf(file, record));
  // a variable product's options and variants come from its variation rows (variations.ts): its own SKU,
  // stock and weight are no simple product's, and its attributes stay in customFields like a simple one's
  if (variable) for (const column of [by.sku, by.stock, by.weight]) keep(column);
  else {
    at('sku', wooCell(record, by.sku) || undefined, by.sku);
    at('totalStock', numberCell(wooCell(record, by.stock)), by.stock);
    at('weightGrams', gramsOf(file, record), by.weight);
  }
  for (const slot of file.attributes) for (const column of [slot.name, slot.values]) keep(column);
  if (Object.keys(customFields).length > 0) line.value.customFields = customFields;
  const handle = line.value.handle;
  const repeated = typeof handle === 'string' && blocks.repeated(handle, record, record.line, (by.slug ?? by.name)?.header ?? 'Name');
  if (repeated) return repeated;
  const done = line.done(record.line);
  if (variable && typeof handle === 'string') {
    const parent: WooParent = { handle, title: name, attributes: attributesOf(file, record), variations: [] };
    const id = wooCell(record, by.id);
    const sku = wooCell(record, by.sku);
    if (id) parents.set(`id:${id}`, parent);
    if (sku) parents.set(`sku:${sku.toLowerCase()}`, parent);
  }
  const categories = categoriesOf(wooCell(record, by.categories));
  line.source('selectedCollections', record.line, by.categories?.header);
  return categories.length > 0 ? { ...done, collections: categories } : done;
}

/** A variable row's attributes: each Attribute N with a name and values (comma-separated). */
function attributesOf(file: WooFile, record: CsvRecord): { name: string; values: string[] }[] {
  return file.attributes.flatMap((slot) => {
    const name = wooCell(record, slot.name);
    const values = listCell(wooCell(record, slot.values));
    return name && values ? [{ name, values }] : [];
  });
}

/** The parent a variation row names: `id:<ID>`, or a SKU. */
export function parentOf(file: WooFile, record: CsvRecord, parents: Map<string, WooParent>): WooParent | undefined {
  const named = wooCell(record, file.by.parent);
  return parents.get(/^id:/i.test(named) ? `id:${named.slice(3).trim()}` : `sku:${named.toLowerCase()}`);
}

function variationLine(file: WooFile, records: readonly CsvRecord[], parents: Map<string, WooParent>): LayoutLine {
  const first = records[0];
  const parent = parentOf(file, first, parents);
  if (!parent) {
    const sources = new Map([['parent', { line: first.line, column: file.by.parent?.header ?? 'Parent' }]]);
    const error = invalidField('parent', 'names no variable product earlier in the file (by id:<ID> or SKU)');
    return { line: first.line, lastLine: records[records.length - 1].line, error, sources };
  }
  if (parent.variations.length + records.length > MAX_VARIANTS) {
    const sources = new Map([['variants', { line: first.line, column: file.by.parent?.header ?? 'Parent' }]]);
    return {
      line: first.line,
      lastLine: records[records.length - 1].line,
      error: tooManyVariations(parent.variations.length + records.length),
      sources,
    };
  }
  const line = new LineBuilder(first);
  line.set('handle', parent.handle, first.line, file.by.parent?.header);
  line.set('title', parent.title, first.line, file.by.parent?.header);
  readVariations(file, line, records, parent);
  return line.done(records[records.length - 1].line);
}

/** A product's variation rows past the variants it may have: an error of all of them (none held past the limit). */
const tooManyVariations = (rows: number) =>
  validationError(
    [{ field: 'variants', in: 'body', message: `has ${rows} rows; a product has at most ${MAX_VARIANTS} variants` }],
    `The product has ${rows} variation rows, more than the ${MAX_VARIANTS} variants a product may have; none of them is imported`,
  );

export const wooProducts: CsvLayout = {
  name: 'woocommerce-products',
  format: 'woocommerce',
  resource: 'products',
  replaysOnResume: true,
  missingColumns: (header) => missingOf(header, [['Type'], ['Name']]),
  open(header) {
    const file = resolveWooFile(header);
    const memory: WooMemory = { parents: new Map(), slugOwners: new Map(), blocks: new ProductBlocks() };
    const reader = groupingReader(
      (record, group) =>
        isVariation(file, record) && isVariation(file, group[0]) && wooCell(record, file.by.parent) === wooCell(group[0], file.by.parent),
      (records) => (isVariation(file, records[0]) ? variationLine(file, records, memory.parents) : productLine(file, records[0], memory)),
      { maxRecords: MAX_VARIANTS, tooMany: tooManyVariations, column: file.by.parent?.header },
    );
    return reader;
  },
};
