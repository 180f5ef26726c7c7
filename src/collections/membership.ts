import type { Expression, SqlBool } from 'kysely';
import type { Db } from '../db/database.js';

/**
 * Collection membership as the products side sees it. Owned by the collections resource.
 * (Interface agreed between products and collections; implementations land with collections.)
 */

/** Replaces the manual collections of a product; every id must be a manual collection of the store (400 naming selectedCollections[i]). */
export async function setProductCollections(_db: Db, _storeId: string, _productId: string, _collectionIds: string[]): Promise<void> {
  throw new Error('setProductCollections: pending the collections resource');
}

/** productId -> ids of the manual collections it belongs to, for many products in one query. */
export async function collectionIdsOfProducts(_db: Db, _storeId: string, productIds: string[]): Promise<Map<string, string[]>> {
  return new Map(productIds.map((id) => [id, []]));
}

/**
 * A condition over the unaliased `products` table that holds for the members (manual or smart) of
 * the collection; throws 404 when the collection is not one of the store's.
 */
export async function productsInCollection(_db: Db, _storeId: string, _collectionId: string): Promise<Expression<SqlBool>> {
  throw new Error('productsInCollection: pending the collections resource');
}
