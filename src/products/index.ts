/** The public surface of products: what other folders may use. */
export { registerProductRoutes } from './products.routes.js';
export type { ProductTables } from './products.tables.js';
export { returnStock, type StockLine, type StockMove, type StockProblems, takeStock } from './stock.js';
