import { type Expression, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { DB, Db } from '../db/index.js';
import type { ListSpec } from '../reads/index.js';
import { currentProductDocument } from './product-documents.sql.js';
import type { PRODUCT_SORTS, ProductListQuery } from './products.schema.js';

/**
 * The SQL of the product list (GET /products, a collection's products): its sorts and search, its filters, and
 * the base that reads stored documents. Like products.sql.ts, every condition names the unaliased `products`.
 */

/**
 * Search: a case-insensitive substring of the title, the handle, a simple product's SKU or any variant's SKU.
 * Each product's `search_text` holds those fields lower-cased, one per line, kept current by the database on
 * every write (migrations/0060), under one trigram index scoped to the store: a search reads products only.
 * `x ILIKE p` is `lower(x) LIKE lower(p)`, so the two agree for any term without a line break; a term with one
 * could span two fields of the text, and is searched over the fields themselves (no index: a rare request).
 */
function productSearch(pattern: string) {
  if (!pattern.includes('\n')) return sql<SqlBool>`products.search_text LIKE lower(${pattern})`;
  return sql<SqlBool>`(products.title ILIKE ${pattern} OR products.handle ILIKE ${pattern} OR products.sku ILIKE ${pattern}
    OR EXISTS (SELECT 1 FROM variants v WHERE v.store_id = products.store_id AND v.product_id = products.id AND v.sku ILIKE ${pattern}))`;
}

export const productListSpec: ListSpec<typeof PRODUCT_SORTS> = {
  path: '/products',
  sorts: {
    createdAt: sql`products.created_at`,
    updatedAt: sql`products.updated_at`,
    price: sql`products.price`,
    title: sql`(lower(products.title) COLLATE "C")`,
  },
  nullable: ['price'],
  idColumn: sql`products.id`,
  search: productSearch,
};

/**
 * Each product's id and its stored document while that is current (the product row is the version it was
 * written for: src/reads/stored-documents.ts), else null.
 */
export function selectProductDocuments(db: Db, storeId: string) {
  return db
    .selectFrom('products')
    .select(['products.id', currentProductDocument().as('document')])
    .where('products.store_id', '=', storeId);
}

/**
 * The console list's fields of each product (CONTRACT §12): the columns GET /products/{id}'s document takes them
 * from (toProductOutput), its variants counted. A console page of 50 stored documents was ~210 KB of JSON
 * parsed for seven fields each: most of the page's server time (docs/console.md, "How fast the lists are").
 */
export function selectProductSummaries(db: Db, storeId: string) {
  return db
    .selectFrom('products')
    .select([
      'products.id',
      'products.title',
      'products.status',
      'products.vendor',
      'products.product_type',
      'products.total_stock',
      'products.updated_at',
      sql<number>`(SELECT count(*)::int FROM variants v WHERE v.store_id = products.store_id AND v.product_id = products.id)`.as(
        'variant_count',
      ),
    ])
    .where('products.store_id', '=', storeId);
}

/**
 * The catalog filters (vendor, productType, tag): exact and case-insensitive, each the expression its index
 * (migrations/0024) is built on, compared with PostgreSQL's own lower() of the value.
 */
export function catalogFilters(query: ProductListQuery): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (query.vendor !== undefined) conditions.push(sql<SqlBool>`lower(products.vendor) = lower(${query.vendor})`);
  if (query.productType !== undefined) conditions.push(sql<SqlBool>`lower(products.product_type) = lower(${query.productType})`);
  if (query.tag !== undefined) conditions.push(sql<SqlBool>`storefront_lower_tags(products.tags) @> ARRAY[lower(${query.tag})]`);
  return conditions;
}

/** The exact filters of the list's own columns (handle, status). */
export function columnFilters(query: ProductListQuery): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (query.handle !== undefined) conditions.push(sql<SqlBool>`products.handle = ${query.handle}`);
  if (query.status !== undefined) conditions.push(sql<SqlBool>`products.status = ${query.status}`);
  return conditions;
}

/** `base` with every one of `filters` in its WHERE. */
export function whereAll<B extends SelectQueryBuilder<DB, 'products', object>>(base: B, filters: Expression<SqlBool>[]): B {
  return (filters.length ? base.where(sql<SqlBool>`${sql.join(filters, sql` AND `)}`) : base) as B;
}

/** The conditions as one (their conjunction), or undefined when there are none. */
export function allOf(conditions: Expression<SqlBool>[]): Expression<SqlBool> | undefined {
  return conditions.length ? sql<SqlBool>`(${sql.join(conditions, sql` AND `)})` : undefined;
}
