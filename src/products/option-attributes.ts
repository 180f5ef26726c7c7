import { optionValueIds } from '../attributes/index.js';
import type { Tx } from '../db/index.js';
import type { Combination, ProductOption } from './options.js';
import { deleteVariantValueLinks, insertVariantValueLinks } from './variants.sql.js';

/**
 * Option names and values as the store's Attributes and AttributeValues (CONTRACT §6), and the
 * links of each variant to the AttributeValues of its combination.
 */

/** Replaces the attribute combinations of a product's variants with those of `variants` (a new product has none to remove). */
export async function linkVariantValues(
  db: Tx,
  storeId: string,
  productId: string,
  variants: { id: string; attributes: Combination }[],
  options: ProductOption[],
  fresh: boolean,
): Promise<void> {
  const valueIds = await optionValueIds(db, storeId, options);
  const links = { variantIds: [] as string[], valueIds: [] as string[] };
  addValueLinks(links, variants, options, valueIds);
  if (!fresh) await deleteVariantValueLinks(db, storeId, productId);
  await insertVariantValueLinks(db, storeId, links.variantIds, links.valueIds);
}

/**
 * Adds each variant's (variant, AttributeValue) links to the two parallel columns insertVariantValueLinks
 * takes; `valueIds` is per option (in order) value -> AttributeValue id, as optionValueIds returns it.
 */
export function addValueLinks(
  links: { variantIds: string[]; valueIds: string[] },
  variants: { id: string; attributes: Combination }[],
  options: ProductOption[],
  valueIds: Map<string, string>[],
): void {
  for (const variant of variants) {
    options.forEach((option, index) => {
      const valueId = valueIds[index].get(variant.attributes[option.name]);
      if (valueId) {
        links.variantIds.push(variant.id);
        links.valueIds.push(valueId);
      }
    });
  }
}
