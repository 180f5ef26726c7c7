import type { Tx } from '../db/index.js';
import { noteUpdated } from '../events/index.js';

/**
 * Notes that a write changed these products' representation without being their own route (a checkout's
 * or a restock's stock, a collection's membership): the feed gets one `product.updated` per product, read as
 * GET returns it at the end of the write.
 */
export function noteProductsChanged(trx: Tx, storeId: string, productIds: Iterable<string>): void {
  // Read together at the end of the write, one query for all of them (the loaders products.routes registers).
  noteUpdated(trx, storeId, 'product', new Set(productIds));
}
