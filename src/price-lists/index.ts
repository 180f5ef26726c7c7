/** The public surface of price lists: routes for app.ts, the resolver for products' GET (CONTRACT §14). */
export { registerPriceListRoutes } from './price-lists.routes.js';
export { type ExportedList, type ItemMarketPrices, listsWithPrices, pricesOfItems } from './prices.export.js';
export { type MarketItemPrice, marketCurrencyOf, setMarketPrices } from './prices.import.js';
export { type ProductListPriceRow, selectProductListPrices } from './prices.sql.js';
export { PriceContextQuery, ResolvedPrice } from './resolver.schema.js';
export { resolvedPricesOfProduct } from './resolver.service.js';
