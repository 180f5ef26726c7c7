import type { Db, Tx } from '../db/index.js';
import { AppError, type ErrorDetail, validationError } from '../errors.js';
import { resolveStock, type StockMove, type StockShortage, stockTarget, takeStock } from '../products/index.js';
import type { CreateOrderInput } from './orders.schema.js';

/**
 * Stock for custom checkouts: what an order with inventoryBehaviour "decrement" does to its variants (and
 * simple products: their totalStock).
 * Planned before the order is inserted (the variants each item names: reads only), taken after it, so
 * the hot variants' row locks are held for one statement and the COMMIT, not for the whole create.
 */

export interface StockPlan {
  columns: { inventory_behaviour: 'bypass' | 'decrement'; stock_moves: string | null };
  moves: StockMove[];
  /** for each cart item with a SKU: its index in cartItems and its stock's target (stockTarget) */
  items: { index: number; target: string }[];
}

const BYPASS: StockPlan = { columns: { inventory_behaviour: 'bypass', stock_moves: null }, moves: [], items: [] };
const skuOf = (sku: string | null | undefined) => sku?.trim() ?? '';
const skuDetail = (index: number, message: string): ErrorDetail => ({ field: `cartItems[${index}].sku`, in: 'body', message });
const UNKNOWN = 'must name a variant, or a product without options, of this store by productId and sku';

/**
 * The order's stock columns and what it will take. A decrement order names every item's variant by
 * productId and SKU: else a 400 naming `cartItems[i].sku`, with the create's other `details`, all at once.
 */
export async function planOrderStock(db: Db, storeId: string, input: CreateOrderInput, details: ErrorDetail[]): Promise<StockPlan> {
  if (input.inventoryBehaviour !== 'decrement') {
    if (details.length) throw validationError(details);
    return BYPASS;
  }
  const indexes = input.cartItems.flatMap((item, index) => (skuOf(item.sku) ? [index] : []));
  const missing = input.cartItems.flatMap((item, index) =>
    skuOf(item.sku) ? [] : [skuDetail(index, 'is required with inventoryBehaviour "decrement"')],
  );
  const lines = indexes.map((index) => {
    const { locationId, ...item } = input.cartItems[index];
    return { ...item, sku: skuOf(item.sku), ...(locationId ? { locationId } : {}) };
  });
  const resolved = lines.length ? await resolveStock(db, storeId, lines) : { moves: [], lineTargets: [] };
  const unresolved = 'unknown' in resolved ? resolved : { unknown: [], ambiguous: [] };
  const all = [
    ...details,
    ...missing,
    ...unresolved.unknown.map((line) => skuDetail(indexes[line], UNKNOWN)),
    ...unresolved.ambiguous.map((line) => skuDetail(indexes[line], 'names more than one variant of the product (two share this SKU)')),
  ];
  if (all.length || 'unknown' in resolved) throw validationError(all);
  const items = resolved.lineTargets.map((target, line) => ({ index: indexes[line], target }));
  return { columns: { inventory_behaviour: 'decrement', stock_moves: JSON.stringify(resolved.moves) }, moves: resolved.moves, items };
}

/** A stock deleted since the plan (or a location unknown or inactive) is a 400 on its items; a short one a 409 with a detail per item of it. */
function shortageError(plan: StockPlan, { short, gone, closed }: StockShortage): AppError {
  const itemsOf = (target: string) => plan.items.filter((item) => item.target === target);
  if (gone.length || closed.length) {
    return validationError([
      ...gone.flatMap((id) => itemsOf(id).map((item) => skuDetail(item.index, UNKNOWN))),
      ...closed.flatMap((id) =>
        itemsOf(id).map((item) => ({
          field: `cartItems[${item.index}].locationId`,
          in: 'body' as const,
          message: 'must name an active location of this store',
        })),
      ),
    ]);
  }
  const wanted = new Map(plan.moves.map((move) => [stockTarget(move), move.quantity]));
  const details = short.flatMap(({ target, available }) =>
    itemsOf(target).map((item) => ({
      field: `cartItems[${item.index}].quantity`,
      in: 'body' as const,
      message: `it has ${available} in stock; the order asks for ${wanted.get(target)} of it`,
    })),
  );
  details.sort((a, b) => a.field.localeCompare(b.field, 'en', { numeric: true }));
  return new AppError(409, 'INSUFFICIENT_STOCK', 'Not enough stock for every item: nothing was ordered and no stock changed', details);
}

/** Takes the planned stock, all of it, or throws (400/409) so the transaction, order included, rolls back. */
export async function takeOrderStock(trx: Tx, storeId: string, plan: StockPlan): Promise<void> {
  if (plan.moves.length === 0) return;
  const shortage = await takeStock(trx, storeId, plan.moves, new Date());
  if (shortage) throw shortageError(plan, shortage);
}
