import { findListedOptionValues, upsertAttributesByName, upsertAttributeValues } from '../attributes/index.js';
import type { Db } from '../db/index.js';
import type { Combination, ProductOption } from './options.js';
import { deleteVariantValueLinks, insertVariantValueLinks } from './variants.sql.js';

/**
 * Option names and values as the store's Attributes and AttributeValues (CONTRACT §6), and the
 * links of each variant to the AttributeValues of its combination.
 */

/**
 * Per option (in order): value -> AttributeValue id. Values already listed are only read (one
 * statement, the usual case); otherwise the values are upserted onto the option's attribute.
 */
async function optionValueIds(db: Db, storeId: string, options: ProductOption[]): Promise<Map<string, string>[]> {
  return (await findListedOptionValues(db, storeId, options)) ?? upsertOptionValues(db, storeId, options);
}

async function upsertOptionValues(db: Db, storeId: string, options: ProductOption[]): Promise<Map<string, string>[]> {
  const attributeIds = await upsertAttributesByName(
    db,
    storeId,
    options.map((option) => option.name),
  );
  const result: Map<string, string>[] = [];
  for (const [index, option] of options.entries()) {
    const ids = await upsertAttributeValues(db, storeId, attributeIds[index], option.values, 'append');
    result.push(new Map(option.values.map((value, j) => [value, ids[j]])));
  }
  return result;
}

/** Replaces the attribute combinations of a product's variants with those of `variants` (a new product has none to remove). */
export async function linkVariantValues(
  db: Db,
  storeId: string,
  productId: string,
  variants: { id: string; attributes: Combination }[],
  options: ProductOption[],
  fresh: boolean,
): Promise<void> {
  const valueIds = await optionValueIds(db, storeId, options);
  const variantColumn: string[] = [];
  const valueColumn: string[] = [];
  for (const variant of variants) {
    options.forEach((option, index) => {
      const valueId = valueIds[index].get(variant.attributes[option.name]);
      if (valueId) {
        variantColumn.push(variant.id);
        valueColumn.push(valueId);
      }
    });
  }
  if (!fresh) await deleteVariantValueLinks(db, storeId, productId);
  await insertVariantValueLinks(db, storeId, variantColumn, valueColumn);
}
