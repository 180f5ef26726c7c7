/** The public surface of attribute sets: what other folders may use. */
export { registerAttributeSetRoutes } from './attribute-sets.routes.js';
export { AttributeSet } from './attribute-sets.schema.js';
export { getAttributeSetsByIds } from './attribute-sets.service.js';
