import type { Db, Tx } from '../db/index.js';
import { found, validationError } from '../errors.js';
import { runList } from '../reads/index.js';
import { isId } from '../shared/index.js';
import { variantValueLinker } from './option-attributes.js';
import {
  type Combination,
  type CombinationRule,
  type ExistingVariant,
  type ProductOption,
  planVariants,
  skuOf,
  type VariantPlan,
} from './options.js';
import type { UpdateVariantInput, VariantListQuery } from './products.schema.js';
import { lockProduct, productExists, touchProduct, toVariantOutput, type VariantRow } from './products.sql.js';
import { noteLevelsMovedBy } from './stock.js';
import { applyEntries, changed, type Entries, type VariantValues, variantValueDetails, withEntry } from './variant-entries.js';
import {
  countVariants,
  deleteVariants,
  insertVariants,
  insertVariantValueLinks,
  lockVariant,
  moveVariants,
  type NewVariant,
  selectCombinations,
  selectProductVariants,
  updateVariantRow,
  updateVariantValues,
  variantListSpec,
} from './variants.sql.js';

const text = (value: number | string | null) => (value == null ? null : String(value));

/** The product fields new variants start from. */
export interface VariantDefaults {
  id: string;
  handle: string;
  price: number | string | null;
  comparePrice: number | string | null;
}

/** A new variant's values: the product's prices, no stock, the generated SKU (before any `variants` entry). */
function startValues(product: VariantDefaults, attributes: Combination): VariantValues {
  return {
    price: text(product.price),
    sale_price: text(product.comparePrice),
    stock: 0,
    sku: skuOf(product.handle, attributes),
    barcode: null,
    weight_grams: null,
    image: null,
    custom_fields: {},
  };
}

/**
 * The plan of planVariants; a product with options keeps at least one variant (400 otherwise). Listed entries
 * that match no combination are applyEntries' 400, naming each.
 */
function checkedPlan(options: ProductOption[], existing: ExistingVariant[], rule: CombinationRule): VariantPlan {
  const plan = planVariants(options, existing, rule);
  const none = options.length > 0 && plan.keep.length + plan.create.length === 0;
  if (none && rule.listed?.size === 0) {
    throw validationError([
      { field: 'variants', in: 'body', message: 'with variantsExactly, list at least one combination of the options' },
    ]);
  }
  if (none && !rule.listed) throw validationError([{ field: 'options', in: 'body', message: 'leave no variant of the product' }]);
  return plan;
}

/**
 * The variants of a new product, planned without the database: what syncVariants creates for it (all the
 * combinations of `options`, entries applied, the same 400s for entries that match nothing).
 */
export function freshVariants(product: VariantDefaults, options: ProductOption[], entries: Entries): NewVariant[] {
  const { create } = checkedPlan(options, [], { listed: entries.listed });
  const values = applyEntries(
    entries,
    create.map((variant) => ({ attributes: variant.attributes, values: startValues(product, variant.attributes) })),
  );
  return create.map((variant, i) => ({ ...variant, values: values[i] }));
}

/**
 * Makes a product's variants the combinations of `options` that the rule of planVariants picks (CONTRACT §6):
 * a surviving combination keeps its variant (id, price, stock, SKU), a new one is created from the product's
 * price and compare price with stock 0, a vanished one is deleted; then the `variants` entries are applied
 * to the variants they match. A fixed number of statements, inside the product's write (its row is
 * new or locked); a new product (no `optionsBefore`: the options it had) has nothing to read, move or unlink.
 * Returns the created variants' rows as written.
 */
export async function syncVariants(
  db: Tx,
  storeId: string,
  product: VariantDefaults,
  options: ProductOption[],
  entries: Entries,
  optionsBefore?: ProductOption[],
): Promise<VariantRow[]> {
  const fresh = optionsBefore === undefined;
  const existing = fresh ? [] : await selectCombinations(db, storeId, product.id);
  const plan = checkedPlan(options, existing, { listed: entries.listed, before: optionsBefore });
  const stored = new Map(existing.map((variant) => [variant.id, variant as VariantValues]));
  const start = (attributes: Combination) => startValues(product, attributes);
  const before = [...plan.keep.map((k) => stored.get(k.id) as VariantValues), ...plan.create.map((c) => start(c.attributes))];
  const after = applyEntries(
    entries,
    [...plan.keep, ...plan.create].map((variant, i) => ({ attributes: variant.attributes, values: before[i] })),
  );
  await deleteVariants(db, storeId, plan.remove);
  await moveVariants(db, storeId, plan.keep);
  const updates = plan.keep.map((k, i) => ({ id: k.id, values: after[i] })).filter((u, i) => changed(before[i], u.values));
  await updateVariantValues(db, storeId, updates);
  const created = plan.create.map((variant, i) => ({ ...variant, values: after[plan.keep.length + i] }));
  const linksOf = await variantValueLinker(db, storeId, product.id, options, fresh);
  const allLinks = (rows: VariantRow[]) =>
    linksOf([...plan.keep, ...rows.map((row, index) => ({ id: row.id, attributes: created[index].attributes }))]);
  if (created.length) return insertVariants(db, storeId, product.id, created, allLinks);
  const kept = allLinks([]);
  await insertVariantValueLinks(db, storeId, kept.variantIds, kept.valueIds);
  return [];
}

/** `variants` entries without `options`: applied to the product's variants as they are. */
export async function applyVariantEntries(db: Tx, storeId: string, productId: string, entries: Entries): Promise<void> {
  const existing = await selectCombinations(db, storeId, productId);
  const after = applyEntries(
    entries,
    existing.map((variant) => ({ attributes: variant.attributes, values: variant })),
  );
  await updateVariantValues(
    db,
    storeId,
    existing.map((variant, i) => ({ id: variant.id, values: after[i] })).filter((u, i) => changed(existing[i], u.values)),
  );
}

/** A product's variants, paged like every list (CONTRACT §9.3); its cursors are bound to the product. */
export async function listVariants(db: Db, storeId: string, productId: string, query: VariantListQuery) {
  found(isId(productId) && (await productExists(db, storeId, productId)), 'Product');
  const base = selectProductVariants(db, storeId, productId);
  const { rows, pagination } = await runList(base, query, variantListSpec, { db, storeId, within: [productId] });
  return { data: rows.map(toVariantOutput), pagination };
}

/**
 * Updates one variant, locked first (hence `Tx`), checked as a variants entry is (salePrice not below price,
 * image a URL, custom fields merged within limits); the product's updatedAt moves too, so a sync job
 * polling products sees the change.
 */
export async function updateVariant(db: Tx, storeId: string, productId: string, variantId: string, input: UpdateVariantInput) {
  const current = found(await lockVariant(db, storeId, productId, variantId), 'Variant');
  const values = withEntry(current, input);
  const details = variantValueDetails(values, input, '');
  if (details.length) throw validationError(details);
  const now = new Date();
  const { custom_fields: customFields, ...plain } = values;
  const row = await updateVariantRow(db, storeId, variantId, { ...plain, custom_fields: JSON.stringify(customFields), updated_at: now });
  await touchProduct(db, storeId, productId, now);
  await noteLevelsMovedBy(db, storeId, input);
  return toVariantOutput(row);
}

/**
 * Deletes one combination (CONTRACT §6, variants that do not exist): its attribute links go with it (foreign-key
 * cascade). The product row is locked first, so two deletes of a product's last two variants cannot both pass
 * the check that one stays; its updatedAt moves, as for any product change.
 */
export async function deleteVariant(db: Tx, storeId: string, productId: string, variantId: string): Promise<{ id: string }> {
  found(isId(productId) && (await lockProduct(db, storeId, productId)), 'Product');
  found(isId(variantId) && (await lockVariant(db, storeId, productId, variantId)), 'Variant');
  if ((await countVariants(db, storeId, productId)) <= 1) {
    throw validationError([
      { field: 'variantId', in: 'path', message: 'is the product’s last variant: a product with options keeps at least one' },
    ]);
  }
  await deleteVariants(db, storeId, [variantId]);
  await touchProduct(db, storeId, productId, new Date());
  return { id: variantId };
}
