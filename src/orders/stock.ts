import type { Tx } from '../db/index.js';
import { AppError, type ErrorDetail, validationError } from '../errors.js';
import { type StockProblems, takeStock } from '../products/index.js';
import type { CreateOrderInput } from './orders.schema.js';

/** Stock for custom checkouts: what an order with inventoryBehaviour "decrement" does to its variants. */

const decrements = (input: CreateOrderInput) => input.inventoryBehaviour === 'decrement';
const skuOf = (sku: string | null | undefined) => sku?.trim() ?? '';
const skuDetail = (index: number, message: string): ErrorDetail => ({ field: `cartItems[${index}].sku`, in: 'body', message });

/** A decrement order names every item's variant by SKU: a missing one is a 400 with the create's other checks. */
export function skuDetails(input: CreateOrderInput): ErrorDetail[] {
  if (!decrements(input)) return [];
  return input.cartItems.flatMap((item, index) =>
    skuOf(item.sku) ? [] : [skuDetail(index, 'is required with inventoryBehaviour "decrement"')],
  );
}

function problemError({ unknown, ambiguous, short }: StockProblems): AppError {
  if (unknown.length || ambiguous.length) {
    return validationError([
      ...unknown.map((index) => skuDetail(index, 'must name a variant of this store by productId and sku')),
      ...ambiguous.map((index) => skuDetail(index, 'names more than one variant of the product (two variants share this SKU)')),
    ]);
  }
  const details = short.map(({ index, available, wanted }) => ({
    field: `cartItems[${index}].quantity`,
    in: 'body' as const,
    message: `the variant has ${available} in stock; the order asks for ${wanted} of it`,
  }));
  return new AppError(409, 'INSUFFICIENT_STOCK', 'Not enough stock for every item: nothing was ordered and no stock changed', details);
}

/** The order's stock columns; for a decrement order, after taking its stock (all of it, or a 400/409 and nothing). */
export async function takeOrderStock(trx: Tx, storeId: string, input: CreateOrderInput) {
  if (!decrements(input)) return { inventory_behaviour: 'bypass' as const, stock_moves: null };
  const lines = input.cartItems.map((item) => ({ productId: item.productId, sku: skuOf(item.sku), quantity: item.quantity }));
  const outcome = await takeStock(trx, storeId, lines, new Date());
  if ('problems' in outcome) throw problemError(outcome.problems);
  return { inventory_behaviour: 'decrement' as const, stock_moves: JSON.stringify(outcome.moves) };
}
