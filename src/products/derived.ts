import type { Tx } from '../db/index.js';
import { noteChange } from '../events/index.js';
import { getProduct } from './products.service.js';

/**
 * Notes that a write changed these products' representation without being their own route (a checkout's
 * or a restock's stock, a collection's membership): the feed gets one `product.updated` per product, read as
 * GET returns it at the end of the write.
 */
export function noteProductsChanged(trx: Tx, storeId: string, productIds: Iterable<string>): void {
  for (const id of new Set(productIds)) noteChange(trx, 'product.updated', id, () => getProduct(trx, storeId, id));
}
