import { optionValueIds } from '../attributes/index.js';
import type { Tx } from '../db/index.js';
import type { Combination, ProductOption } from './options.js';
import { deleteVariantValueLinks, type ValueLinks } from './variants.sql.js';

/**
 * Option names and values as the store's Attributes and AttributeValues (CONTRACT §6), and the
 * links of each variant to the AttributeValues of its combination.
 */

/**
 * The links of `variants` to the AttributeValues of their combinations, the values found or made first
 * (optionValueIds); a product's old links are removed unless it is new (`fresh`). The caller inserts them,
 * with the product's new variants when it has some (insertVariants' `linksOf`).
 */
export async function variantValueLinker(
  db: Tx,
  storeId: string,
  productId: string,
  options: ProductOption[],
  fresh: boolean,
): Promise<(variants: { id: string; attributes: Combination }[]) => ValueLinks> {
  const valueIds = await optionValueIds(db, storeId, options);
  if (!fresh) await deleteVariantValueLinks(db, storeId, productId);
  return (variants) => {
    const links: ValueLinks = { variantIds: [], valueIds: [] };
    addValueLinks(links, variants, options, valueIds);
    return links;
  };
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
