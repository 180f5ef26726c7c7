/** The public surface of products: what other folders may use. */

export { keptReadsOf } from './kept-reads.js';
export { MAX_VARIANTS, skuOf } from './options.js';
export { rebuildProductDocuments } from './products.documents.js';
export { importProductLine } from './products.import.js';
export { productRecordKind, registerProductRoutes } from './products.routes.js';
export { Product, ProductListQuery } from './products.schema.js';
export {
  getProductsByIds,
  getProductTextsByIds,
  listProductPage,
  listProductSummaryPage,
  type ProductSummary,
} from './products.service.js';
export {
  resolveStock,
  returnStock,
  type StockLine,
  type StockMove,
  type StockShortage,
  stockTarget,
  takeStock,
  type UnresolvedLines,
} from './stock.js';
