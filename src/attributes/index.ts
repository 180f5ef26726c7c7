/** The public surface of attributes: what other folders may use (products upsert their options here). */
export { attributeRecordKind, registerAttributeRoutes } from './attributes.routes.js';
export { Attribute } from './attributes.schema.js';
export { getAttributesByIds } from './attributes.service.js';
export { type OptionValues, optionValueIds } from './option-values.js';
