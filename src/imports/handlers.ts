import { importCollectionLine } from '../collections/index.js';
import { importCustomerLine } from '../customers/index.js';
import { importInventoryBatch, importInventoryLine } from '../locations/index.js';
import { importOrders } from '../orders/index.js';
import { importProductLine } from '../products/index.js';
import type { ImportContext, ImportHandlers } from './import-job.js';

/** The resources POST /imports takes, each with its natural key (docs/imports.md). */
export const IMPORT_RESOURCES = ['products', 'collections', 'customers', 'orders', 'inventory'] as const;

/**
 * Each resource's line handler (src/imports/types.ts), written in the resource's own folder and exported
 * from its index.ts. A resource without one is refused by POST /imports (400 naming `resource`).
 */
export function importHandlers(ctx: ImportContext): ImportHandlers {
  return {
    products: importProductLine(ctx),
    collections: importCollectionLine(ctx),
    customers: importCustomerLine,
    orders: importOrders,
    inventory: { line: importInventoryLine, batch: importInventoryBatch },
  };
}
