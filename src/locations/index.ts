/**
 * The public surface of locations: routes for app.ts, the checkout's stock moves for products (src/products/stock.ts),
 * the inventory import's line handler (src/imports), the inventory export's reads (src/exports), and the
 * inventory.updated events of the levels a product write moves through its totals (noteMovedLevels).
 */
export { type LevelMove, type LevelShortage, returnLevelStock, takeLevelStock } from './checkout-levels.js';
export { getInventoryLinesByIds } from './inventory.export.js';
export { importInventoryLine } from './inventory.import.js';
export { importInventoryBatch } from './inventory.import-batch.js';
export { getInventoryRecordsByIds, type InventoryRecord } from './inventory.sql.js';
export { InventoryLine } from './inventory-line.schema.js';
export { registerInventoryLevelRoutes } from './levels.routes.js';
export { noteMovedLevels } from './levels.service.js';
export { registerLocationRoutes } from './locations.routes.js';
