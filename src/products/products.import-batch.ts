import type { RawBuilder } from 'kysely';
import { type OptionValues, optionValueIds } from '../attributes/index.js';
import type { Tx } from '../db/index.js';
import { AppError } from '../errors.js';
import { noteMovedLevels } from '../locations/index.js';
import type { AfterWork, ImportBatchApplier, ImportBatchLine, ImportBatchResult, ImportLineOptions } from '../shared/index.js';
import { addValueLinks } from './option-attributes.js';
import type { ProductOption } from './options.js';
import { type ProductContext, prepareProduct } from './product-input.js';
import { checkProductLine, lineDigest, unchangedSinceImport } from './products.import-checks.js';
import type { CreateProductInput } from './products.schema.js';
import { newProductValues } from './products.service.js';
import {
  importMatchesByHandle,
  insertProductRows,
  newSearchText,
  type ProductRow,
  toProductOutput,
  toVariantOutput,
} from './products.sql.js';
import { indexEntries } from './variant-entries.js';
import { freshVariants } from './variants.service.js';
import { insertVariantsOf, insertVariantValueLinks, type NewVariant } from './variants.sql.js';

/**
 * The products' batch applier (src/imports/types.ts): a batch of import lines in a handful of statements
 * instead of ~9 per line. One query looks up the batch's handles; then
 * - a line that is the last import line applied to its unchanged product is `unchanged` (no write, no event);
 * - a new product (handle not in the store, once in the batch, no `selectedCollections`, no `attributeSet`,
 *   no media bytes to store) is created set-based: one multi-row INSERT of the products, the option values
 *   of all of them at once, one INSERT of all their variants, one of all their attribute links, one append
 *   of all their `product.created` events;
 * - a line that fails the API's checks is its AppError;
 * - anything else (a changed product, a handle twice in the batch, references or media) is left to the
 *   per-line handler, which runs after this. So that the result is the file order's, no line after the first
 *   line left to it is written here: a later new product is left to it too (option values are appended to
 *   attributes in the order lines create them).
 */

/** A new product planned from its line, nothing written yet. */
interface PlannedProduct {
  index: number;
  values: ReturnType<typeof newProductValues> & { handle: string; search_text: RawBuilder<string> };
  options: ProductOption[];
  variants: NewVariant[];
}

type CheckedLine = { input: CreateProductInput; handle: string; digest: string } | AppError;

function checkLine(line: ImportBatchLine, options: ImportLineOptions): CheckedLine {
  try {
    return { ...checkProductLine(line.value, options.handling), digest: lineDigest(line.text) };
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/** Handles that more than one line of the batch names: their lines go one by one, in file order. */
function repeatedHandles(checked: CheckedLine[]): Set<string> {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const line of checked) {
    if (line instanceof AppError) continue;
    if (seen.has(line.handle)) repeated.add(line.handle);
    seen.add(line.handle);
  }
  return repeated;
}

const createsAlone = (input: CreateProductInput) => input.selectedCollections === undefined && !input.attributeSet;

/**
 * When the product a line creates (and its variants) is dated: now, for an import through the API. The bench
 * seeder (bench/seed/catalog.ts) spreads its catalog's creation over past years, which no line can say
 * (`createdAt` is read-only in a product line).
 */
export type CreationTime = (line: ImportBatchLine) => Date;

const now: CreationTime = () => new Date();

export function importProductBatch(ctx: ProductContext, createdAt: CreationTime = now): ImportBatchApplier {
  return async (trx, storeId, lines, options) => {
    const checked = lines.map((line) => checkLine(line, options));
    const repeated = repeatedHandles(checked);
    const handles = checked.flatMap((line) => (line instanceof AppError || !line.handle || repeated.has(line.handle) ? [] : [line.handle]));
    const matches = new Map((await importMatchesByHandle(trx, storeId, handles)).map((match) => [match.handle, match]));
    const results: ImportBatchResult[] = lines.map(() => null);
    const planned: PlannedProduct[] = [];
    // set once a line is left to the per-line handler: no later line is written here
    let leftBefore = false;
    for (const [index, line] of checked.entries()) {
      if (line instanceof AppError) {
        results[index] = line;
        continue;
      }
      const match = repeated.has(line.handle) ? undefined : matches.get(line.handle);
      const creatable = !repeated.has(line.handle) && !match && !leftBefore && createsAlone(line.input);
      const plan = creatable ? await errorOr(planProduct(trx, storeId, line, createdAt(lines[index]), ctx)) : null;
      if (match && unchangedSinceImport(match, line.input, line.digest)) results[index] = 'unchanged';
      else if (plan instanceof AppError) results[index] = plan;
      else if (plan) planned.push({ ...plan, index });
      else leftBefore = true;
    }
    const created = await createProducts(trx, storeId, planned, options.afterWork);
    for (const product of planned) results[product.index] = created.has(product.values.id) ? 'created' : null;
    return results;
  };
}

/** The API's error a check threw, as a value (a line's result); anything else still throws. */
async function errorOr<T>(work: Promise<T>): Promise<T | AppError> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/**
 * What POST /products would write for the line, checked as it checks it (the same AppErrors), or null when
 * the product has media bytes to store (left to the per-line handler, which stores them after its write).
 */
async function planProduct(
  trx: Tx,
  storeId: string,
  line: { input: CreateProductInput; handle: string; digest: string },
  now: Date,
  ctx: ProductContext,
): Promise<Omit<PlannedProduct, 'index'> | null> {
  const prepared = await prepareProduct(trx, storeId, line.input, null, ctx);
  if (prepared.pending.length > 0) return null;
  const base = newProductValues(storeId, line.input, prepared, now, line.digest);
  const entries = indexEntries(prepared.variants, prepared.variantsExactly);
  const options = prepared.options ?? [];
  const defaults = { id: base.id, handle: line.handle, price: prepared.price, comparePrice: prepared.comparePrice };
  const variants = freshVariants(defaults, options, entries);
  // the row carries its search text from the start (as POST /products does): written once, not again by its variants' insert
  const searchText = newSearchText(
    base.title,
    line.handle,
    base.sku ?? null,
    variants.map((variant) => variant.values.sku),
  );
  return { values: { ...base, handle: line.handle, search_text: searchText }, options, variants };
}

/**
 * Writes the planned products set-based and appends their events; returns the ids of those created (a
 * handle another writer took meanwhile is skipped by ON CONFLICT: its line goes one by one).
 */
async function createProducts(trx: Tx, storeId: string, planned: PlannedProduct[], afterWork: AfterWork): Promise<Set<string>> {
  if (planned.length === 0) return new Set();
  const rows = new Map(
    (
      await insertProductRows(
        trx,
        planned.map((product) => product.values),
      )
    ).map((row) => [row.id, row]),
  );
  const inserted = planned.filter((product) => rows.has(product.values.id));
  const union = unionOf(inserted.map((product) => product.options));
  const unionIds = union.options.length > 0 ? await optionValueIds(trx, storeId, union.options) : [];
  const variantRows = await insertVariantsOf(
    trx,
    storeId,
    inserted.flatMap((product) =>
      product.variants.map((variant) => ({ ...variant, productId: product.values.id, createdAt: product.values.created_at })),
    ),
  );
  const links = { variantIds: [] as string[], valueIds: [] as string[] };
  const events = [];
  let offset = 0;
  for (const product of inserted) {
    const own = variantRows.slice(offset, offset + product.variants.length);
    offset += product.variants.length;
    const valueIds = product.options.map((option) => unionIds[union.indexOf(option.name)]);
    addValueLinks(links, own, product.options, valueIds);
    // the Product as GET returns it, built from what was written (as a create through the API does)
    const row = rows.get(product.values.id) as ProductRow;
    events.push({ type: 'product.created' as const, data: toProductOutput(row, own.map(toVariantOutput), []) });
  }
  await insertVariantValueLinks(trx, storeId, links.variantIds, links.valueIds);
  // the default location's levels their stock made (the database's, from the totals): an inventory.updated each
  if (inserted.some(({ values, variants }) => !!values.total_stock || variants.some((variant) => !!variant.values.stock))) {
    await noteMovedLevels(trx, storeId);
  }
  await afterWork.append(trx, storeId, events);
  return new Set(inserted.map((product) => product.values.id));
}

/**
 * The options of many products as one list for optionValueIds: one entry per attribute (names compare
 * case-insensitively, the first spelling kept), its values in the order the products name them — the order
 * in which creating the products one by one would append them to the attribute.
 */
function unionOf(optionLists: ProductOption[][]): { options: OptionValues[]; indexOf: (name: string) => number } {
  const options: OptionValues[] = [];
  const byName = new Map<string, { index: number; values: Set<string> }>();
  for (const option of optionLists.flat()) {
    const key = option.name.toLowerCase();
    let entry = byName.get(key);
    if (!entry) {
      entry = { index: options.length, values: new Set() };
      byName.set(key, entry);
      options.push({ name: option.name, values: [] });
    }
    for (const value of option.values) {
      if (entry.values.has(value)) continue;
      entry.values.add(value);
      options[entry.index].values.push(value);
    }
  }
  return { options, indexOf: (name) => byName.get(name.toLowerCase())?.index as number };
}
