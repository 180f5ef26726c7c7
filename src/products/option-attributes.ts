import { upsertAttributesByName, upsertAttributeValues } from '../attributes/index.js';
import type { Db } from '../db/index.js';
import type { Combination, ProductOption } from './options.js';
import { replaceVariantValueLinks } from './variants.sql.js';

/**
 * Option names and values as the store's Attributes and AttributeValues (CONTRACT §6), and the
 * links of each variant to the AttributeValues of its combination.
 */

/** Per option (in order): value -> AttributeValue id, upserting the values onto the option's attribute. */
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

/** Replaces the attribute combinations of a product's variants with those of `variants`. */
export async function linkVariantValues(
  db: Db,
  storeId: string,
  productId: string,
  variants: { id: string; attributes: Combination }[],
  options: ProductOption[],
): Promise<void> {
  const valueIds = await upsertOptionValues(db, storeId, options);
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
  await replaceVariantValueLinks(db, storeId, productId, variantColumn, valueColumn);
}
