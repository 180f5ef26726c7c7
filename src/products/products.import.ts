import { invalidField } from '../errors.js';
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
 * A line must carry its handle, as the other resources' lines must carry their keys: without one it could
 * never be matched again, and re-running the file would duplicate the product.
 */
export function importProductLine(ctx: ProductContext): ImportLineHandler {
  return async (trx, storeId, line) => {
    const input = checkLine(line);
    if (input.handle === undefined) throw invalidField('handle', 'is required in an import line: it is the key the line is matched by');
    const handle = suppliedSlug(input.handle);
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
