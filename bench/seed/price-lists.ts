import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { newId } from '../../src/shared/ids.js';

/**
 * The bench store's price lists (CONTRACT §14; issue 40's "250 products with 100 price lists in the store"),
 * set-based: 100 lists over five currencies (the store's USD among them), every fourth for wholesale customers
 * only, two USD ones a percentage off; each list a fixed price for ~2% of the store's items (variants and simple
 * products), drawn by a hash of the item and the list, so an item is in about two lists and runs seed alike.
 */

export const PRICE_LISTS = 100;
const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'CAD'] as const;
/** per currency, the price of 1 USD (amounts rounded to the currency's minor unit: JPY has none) */
const RATES: Record<(typeof CURRENCIES)[number], { rate: string; decimals: number }> = {
  USD: { rate: '0.95', decimals: 2 },
  EUR: { rate: '0.92', decimals: 2 },
  GBP: { rate: '0.79', decimals: 2 },
  JPY: { rate: '150', decimals: 0 },
  CAD: { rate: '1.36', decimals: 2 },
};
/**
 * An item's two lists (0-based indexes into the lists as created) from one hash of its id, split in halves: the
 * first from the low 16 bits, the second from the high 16 among the other 99, so the two differ and each list
 * holds ~2% of the items. Two rows per item, joined to the lists by index (a hash join, not 100 tests an item).
 */
const itemLists = (itemId: RawBuilder<unknown>) => sql`CROSS JOIN LATERAL (SELECT hashtext(${itemId})::bigint AS h) AS hashed
  CROSS JOIN LATERAL (VALUES ((hashed.h & 65535) % ${sql.lit(PRICE_LISTS)}),
    (((hashed.h & 65535) % ${sql.lit(PRICE_LISTS)} + 1 + ((hashed.h >> 16) & 65535) % ${sql.lit(PRICE_LISTS - 1)}) % ${sql.lit(PRICE_LISTS)})) AS pick(k)`;

function listRows(at: Date) {
  return Array.from({ length: PRICE_LISTS }, (_, k) => {
    const currency = CURRENCIES[k % CURRENCIES.length];
    const adjusted = k === 0 || k === 5;
    return {
      id: newId(),
      name: `Bench list ${String(k + 1).padStart(3, '0')} ${currency}`,
      currency,
      tags: k % 4 === 3 ? '{wholesale}' : '{}',
      adjustmentValue: adjusted ? String(5 + k) : null,
      createdAt: new Date(at.getTime() + k),
    };
  });
}

/** Inserts the lists, then their fixed prices from the store's items; answers the number of prices. */
export async function seedPriceLists(db: Db, storeId: string): Promise<number> {
  const lists = listRows(new Date());
  const column = <K extends keyof (typeof lists)[number]>(key: K) => lists.map((list) => list[key]);
  await sql`INSERT INTO price_lists (store_id, id, name, currency, customer_tags, adjustment_type, adjustment_value, created_at, updated_at)
    SELECT ${storeId}, l.id, l.name, l.currency, l.tags::text[], CASE WHEN l.adjustment IS NULL THEN NULL ELSE 'percentageDecrease' END,
      l.adjustment::numeric, l.created_at, l.created_at
    FROM unnest(${column('id')}::text[], ${column('name')}::text[], ${column('currency')}::text[], ${column('tags')}::text[],
      ${column('adjustmentValue')}::text[], ${column('createdAt')}::timestamptz[]) AS l(id, name, currency, tags, adjustment, created_at)`.execute(
    db,
  );
  const rates = CURRENCIES.map((currency) => RATES[currency]);
  return db.transaction().execute(async (trx) => {
    // No foreign-key trigger fires (three a row, 18 million rows at a million products): every item is read from the
    // store's own products and variants and every list was inserted above, so each key holds by construction, as
    // in the catalog copies (clone.ts). A seed that crashes is thrown away, so its commit need not wait for the WAL.
    await sql`SET LOCAL session_replication_role = replica`.execute(trx);
    await sql`SET LOCAL synchronous_commit = off`.execute(trx);
    const { rows } = await sql<{ n: number }>`WITH items AS (
      SELECT id AS item_id, id AS product_id, NULL::text AS variant_id, price FROM products
        WHERE store_id = ${storeId} AND options = '[]'::jsonb
      UNION ALL
      SELECT id, product_id, id, price FROM variants WHERE store_id = ${storeId}
    ), rates AS (
      SELECT * FROM unnest(${[...CURRENCIES]}::text[], ${rates.map((r) => r.rate)}::numeric[], ${rates.map((r) => r.decimals)}::int[])
        AS r(currency, rate, decimals)
    ), lists AS (
      SELECT l.id, l.currency, l.created_at, o.k - 1 AS k
      FROM unnest(${column('id')}::text[]) WITH ORDINALITY AS o(id, k) JOIN price_lists l ON l.store_id = ${storeId} AND l.id = o.id
    ), inserted AS (
      INSERT INTO price_list_prices (store_id, price_list_id, item_id, product_id, variant_id, price, compare_price, created_at, updated_at)
      SELECT ${storeId}, l.id, i.item_id, i.product_id, i.variant_id, round(i.price * r.rate, r.decimals), NULL, l.created_at, l.created_at
      FROM items i ${itemLists(sql`i.item_id`)}
      JOIN lists l ON l.k = pick.k JOIN rates r ON r.currency = l.currency
      WHERE i.price IS NOT NULL
      RETURNING 1
    ) SELECT count(*)::int AS n FROM inserted`.execute(trx);
    return rows[0]?.n ?? 0;
  });
}
