/**
 * The public surface of collections: what other folders may use. Products depend on collections
 * (membership), never the reverse: GET /collections/{id}/products is a product list and lives in products.
 */

export { type CollectionImportContext, importCollectionLine } from './collections.import.js';
export { collectionRecordKind, registerCollectionRoutes } from './collections.routes.js';
export { Collection, CollectionListQuery } from './collections.schema.js';
export { getCollectionsByIds, listCollectionPage } from './collections.service.js';
export { collectionIdByHandle } from './collections.sql.js';
export { productsInCollection, setProductCollections } from './membership.js';
export { collectionIdsColumn } from './membership.sql.js';
