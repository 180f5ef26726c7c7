/** Tables of orders (migrations/0004_customers_orders.sql). */
// biome-ignore lint/complexity/noBannedTypes: filled in by the orders work
export type OrderTables = {};
