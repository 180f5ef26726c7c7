import type { Tx } from '../db/index.js';
import { AppError, type ErrorDetail, validationError } from '../errors.js';
import { type StockProblems, takeStock } from '../products/index.js';
import type { CreateOrderInput } from './orders.schema.js';

/** Stock for custom checkouts: what an order with inventoryBehaviour "decrement" does to its variants. */

const skuOf = (sku: string | null | undefined) => sku?.trim() ?? '';
const skuDetail = (index: number, message: string): ErrorDetail => ({ field: `cartItems[${index}].sku`, in: 'body', message });

/** The 400 details of the stock's problems, by cart index (`indexes` maps a stock line to its item). */
function skuProblemDetails({ unknown, ambiguous }: StockProblems, indexes: number[]): ErrorDetail[] {
  return [
    ...unknown.map((line) => skuDetail(indexes[line], 'must name a variant of this store by productId and sku')),
    ...ambiguous.map((line) => skuDetail(indexes[line], 'names more than one variant of the product (two variants share this SKU)')),
  ];
}

function insufficientStock({ short }: StockProblems, indexes: number[]): AppError {
  const details = short.map(({ index, available, wanted }) => ({
    field: `cartItems[${indexes[index]}].quantity`,
    in: 'body' as const,
    message: `the variant has ${available} in stock; the order asks for ${wanted} of it`,
  }));
  return new AppError(409, 'INSUFFICIENT_STOCK', 'Not enough stock for every item: nothing was ordered and no stock changed', details);
}

/**
 * The order's stock columns. A decrement order first takes its stock: every item must name a variant
 * (400 naming `cartItems[i].sku`, with the create's other `details`, all at once), and every variant
 * must have the quantity (409 INSUFFICIENT_STOCK, a detail per short item); else nothing changes.
 */
export async function takeOrderStock(trx: Tx, storeId: string, input: CreateOrderInput, details: ErrorDetail[]) {
  if (input.inventoryBehaviour !== 'decrement') {
    if (details.length) throw validationError(details);
    return { inventory_behaviour: 'bypass' as const, stock_moves: null };
  }
  const indexes = input.cartItems.flatMap((item, index) => (skuOf(item.sku) ? [index] : []));
  const missing = input.cartItems.flatMap((item, index) =>
    skuOf(item.sku) ? [] : [skuDetail(index, 'is required with inventoryBehaviour "decrement"')],
  );
  const lines = indexes.map((index) => input.cartItems[index]).map((item) => ({ ...item, sku: skuOf(item.sku) }));
  const outcome = lines.length ? await takeStock(trx, storeId, lines, new Date()) : { moves: [] };
  const all = [...details, ...missing, ...('problems' in outcome ? skuProblemDetails(outcome.problems, indexes) : [])];
  if (all.length) throw validationError(all);
  if ('problems' in outcome) throw insufficientStock(outcome.problems, indexes);
  return { inventory_behaviour: 'decrement' as const, stock_moves: JSON.stringify(outcome.moves) };
}
