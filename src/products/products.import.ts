import { appendEvents } from '../events/index.js';
import { compileBodyCheck } from '../http/index.js';
import type { ImportLineHandler } from '../imports/index.js';
import { suppliedSlug } from '../shared/index.js';
import type { ProductContext } from './product-input.js';
import { CreateProductBody } from './products.schema.js';
import { createProduct, updateProduct } from './products.service.js';
import { productIdByHandle } from './products.sql.js';

const checkLine = compileBodyCheck(CreateProductBody);

/**
 * A line of `POST /imports?resource=products`: the body POST /products takes, upserted by `handle` —
 * the store's product with that handle is updated as PATCH would (fields the line leaves out keep their
 * value), else a product is created as POST would. `variants` are applied by `attributes` after the
 * options have generated (or kept) the variants, as on POST and PATCH. The same event as the API write
 * (`product.created` / `product.updated`, with the derived ones the write noted) is appended.
 * A line without a handle is always a create (its handle comes from the title).
 */
export function importProductLine(ctx: ProductContext): ImportLineHandler {
  return async (trx, storeId, line) => {
    const input = checkLine(line);
    const handle = input.handle === undefined ? '' : suppliedSlug(input.handle);
    const existing = handle ? await productIdByHandle(trx, storeId, handle) : undefined;
    if (existing) {
      const product = await updateProduct(trx, storeId, existing, input, ctx);
      await appendEvents(trx, storeId, { type: 'product.updated', data: product });
      return 'updated';
    }
    const product = await createProduct(trx, storeId, input, ctx);
    await appendEvents(trx, storeId, { type: 'product.created', data: product });
    return 'created';
  };
}
