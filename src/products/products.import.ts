import type { Tx } from '../db/index.js';
import type { ImportHandler, ImportLineOptions, ImportLineOutcome } from '../shared/index.js';
import type { ProductContext } from './product-input.js';
import { importProductBatch } from './products.import-batch.js';
import { checkProductLine, lineDigest, unchangedSinceImport } from './products.import-checks.js';
import { createProduct, updateProduct } from './products.service.js';
import { importMatchesByHandle } from './products.sql.js';

/**
 * A line of `POST /imports?resource=products`: the body POST /products takes, upserted by `handle` —
 * the store's product with that handle is updated as PATCH would (fields the line leaves out keep their
 * value), else a product is created as POST would. `variants` are applied by `attributes` after the
 * options have generated (or kept) the variants, as on POST and PATCH. The same event as the API write
 * (`product.created` / `product.updated`, with the derived ones the write noted) is appended. A line that
 * is the last one applied to an unchanged product writes nothing and is counted as updated.
 * A line must carry its handle, as the other resources' lines must carry their keys: without one it could
 * never be matched again, and re-running the file would duplicate the product.
 * The batch applier (products.import-batch.ts) takes the lines it can apply set-based first.
 */
export function importProductLine(ctx: ProductContext): ImportHandler {
  const line = async (trx: Tx, storeId: string, value: unknown, text: string, options: ImportLineOptions): Promise<ImportLineOutcome> => {
    const { input, handle } = checkProductLine(value, options.handling);
    const digest = lineDigest(text);
    const [existing] = handle ? await importMatchesByHandle(trx, storeId, [handle]) : [];
    if (existing) {
      if (unchangedSinceImport(existing, input, digest)) return 'updated';
      const product = await updateProduct(trx, storeId, existing.id, input, ctx, digest);
      await options.afterWork.append(trx, storeId, { type: 'product.updated', data: product });
      return 'updated';
    }
    const product = await createProduct(trx, storeId, input, ctx, digest);
    await options.afterWork.append(trx, storeId, { type: 'product.created', data: product });
    return 'created';
  };
  return { line, batch: importProductBatch(ctx) };
}
