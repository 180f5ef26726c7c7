import type { Tx } from '../db/index.js';
import { notFound } from '../errors.js';
import type { Product, Variant } from './products.schema.js';
import { getProduct } from './products.service.js';
import { toVariantOutput, VARIANT_COLUMNS } from './products.sql.js';

/**
 * The current versions If-Match is checked against (CONTRACT §9.2): what GET returns, with the row
 * locked until the write's transaction ends, so a concurrent write naming the same version waits and
 * then sees the new one.
 */
export const currentProduct =
  (id: string) =>
  async (trx: Tx, storeId: string): Promise<Product> => {
    await trx.selectFrom('products').select('id').where('store_id', '=', storeId).where('id', '=', id).forUpdate().execute();
    return getProduct(trx, storeId, id);
  };

/** A variant as PATCH returns it (the same row lock updateVariant takes first). */
export const currentVariant =
  (productId: string, variantId: string) =>
  async (trx: Tx, storeId: string): Promise<Variant> => {
    const row = await trx
      .selectFrom('variants')
      .select(VARIANT_COLUMNS)
      .where('store_id', '=', storeId)
      .where('product_id', '=', productId)
      .where('id', '=', variantId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw notFound('Variant');
    return toVariantOutput(row);
  };
