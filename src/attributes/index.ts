/** The public surface of attributes: what other folders may use (products upsert their options here). */
export { findListedOptionValues, upsertAttributeValues } from './attribute-values.sql.js';
export { registerAttributeRoutes } from './attributes.routes.js';
export { upsertAttributesByName } from './attributes.sql.js';
export type { AttributeTables } from './attributes.tables.js';
