import { html } from 'ghtml';
import type { Db } from '../db/index.js';
import { selectProductListPrices } from '../price-lists/index.js';
import { type Cell, table } from './view.js';

/**
 * A product's fixed prices per price list (CONTRACT §12, §14) for its page: one statement for the page, each row an
 * item (a variant named by its option values, or the simple product) in one list, with the list's currency.
 */

/** Rows read per page: a product's items times the store's lists can be large; GET /price-lists/{id}/prices has them all. */
const PRICES_READ = 500;

interface PricedProduct {
  id: string;
  variants?: { id: string; attributes?: Record<string, string> }[];
}

export async function pricesPerListTable(db: Db, storeId: string, product: PricedProduct): Promise<string> {
  const rows = await selectProductListPrices(db, storeId, product.id, PRICES_READ + 1);
  const variantName = new Map((product.variants ?? []).map((variant) => [variant.id, Object.values(variant.attributes ?? {}).join(' / ')]));
  const cells: Cell[][] = rows
    .slice(0, PRICES_READ)
    .map((row) => [
      row.item_id === product.id ? 'The product' : (variantName.get(row.item_id) ?? row.item_id),
      row.list_name,
      row.currency,
      row.price,
      row.compare_price,
    ]);
  const more = rows.length > PRICES_READ ? html`<p>The first ${PRICES_READ} prices; GET /price-lists/{id}/prices lists them all.</p>` : '';
  return `${table('Prices per list', ['Item', 'Price list', 'Currency', 'Price', 'Compare price'], cells)}${more}`;
}
