import type { Tx } from '../db/index.js';
import { found } from '../errors.js';
import { lockedCurrent } from '../shared/index.js';
import type { Variant } from './products.schema.js';
import { getProduct } from './products.service.js';
import { toVariantOutput } from './products.sql.js';
import { lockVariantRow } from './variants.sql.js';

/**
 * The current versions If-Match is checked against (CONTRACT §9.2): what GET returns, with the row
 * locked until the write's transaction ends, so a concurrent write naming the same version waits and
 * then sees the new one.
 */
export const currentProduct = (id: string) => lockedCurrent('products', id, getProduct);

/** A variant as PATCH returns it (the same row lock updateVariant takes first). */
export const currentVariant =
  (productId: string, variantId: string) =>
  async (trx: Tx, storeId: string): Promise<Variant> => {
    return toVariantOutput(found(await lockVariantRow(trx, storeId, productId, variantId), 'Variant'));
  };
