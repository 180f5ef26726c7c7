/** Tables of customers and their addresses (migrations/0004_customers_orders.sql). */
// biome-ignore lint/complexity/noBannedTypes: filled in by the customers work
export type CustomerTables = {};
