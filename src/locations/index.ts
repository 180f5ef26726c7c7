/** The public surface of locations: routes for app.ts, the checkout's stock moves for products (src/products/stock.ts). */
export { type LevelMove, type LevelShortage, returnLevelStock, takeLevelStock } from './checkout-levels.js';
export { importInventoryLine } from './inventory.import.js';
export { registerInventoryLevelRoutes } from './levels.routes.js';
export { registerLocationRoutes } from './locations.routes.js';
