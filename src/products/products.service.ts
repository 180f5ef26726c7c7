import type { Expression, SelectQueryBuilder, SqlBool } from 'kysely';
import { productsInCollection, setProductCollections } from '../collections/index.js';
import { type DB, type Db, type Tx, withTx } from '../db/index.js';
import { AppError, found } from '../errors.js';
import { storeMedia } from '../media/index.js';
import {
  countedTotal,
  countedTotalSql,
  type DocumentOfRow,
  documentTexts,
  paginationOf,
  productChangesSql,
  runList,
  runListPage,
  selectByIds,
  sharedRead,
} from '../reads/index.js';
import { deleteRecord, isId, iso, newId, storedListBytes } from '../shared/index.js';
import { assertHandleFree, insertProduct, type VariantSkus } from './handles.js';
import type { KeptReads } from './kept-reads.js';
import { type PreparedProduct, type ProductContext, prepareProduct } from './product-input.js';
import type { CreateProductInput, Product, ProductListQuery, UpdateProductInput } from './products.schema.js';
import {
  lockProduct,
  type ProductRow,
  type ProductWithRelationsRow,
  selectProductsWithRelations,
  toProductOutput,
  toVariantOutput,
  updateProductRow,
  type VariantRow,
} from './products.sql.js';
import {
  allOf,
  catalogFilters,
  columnFilters,
  productListSpec,
  selectProductDocuments,
  selectProductSummaries,
  whereAll,
} from './products-list.sql.js';
import { noteLevelsMovedBy } from './stock.js';
import { applyEntries, indexEntries } from './variant-entries.js';
import { applyVariantEntries, freshVariants, syncVariants } from './variants.service.js';

export type { ProductContext };

/** Rows read with their relations (selectProductsWithRelations) -> full outputs, no further query. */
function toProductOutputs(rows: ProductWithRelationsRow[]): Product[] {
  return rows.map((row) => toProductOutput(row, row.variant_rows.map(toVariantOutput), row.collection_ids));
}

/** Full Product outputs of the store's products among `ids`, in the order of `ids` (unknown ids are skipped), in one statement. */
export async function getProductsByIds(db: Db, storeId: string, ids: string[]): Promise<Product[]> {
  return toProductOutputs(await selectByIds(selectProductsWithRelations(db, storeId), ids, 'products.id'));
}

export async function getProduct(db: Db, storeId: string, id: string): Promise<Product> {
  const [product] = await getProductsByIds(db, storeId, [id]);
  return found(product, 'Product');
}

/**
 * The writes after the product row: variants, memberships, then media bytes (last, so a failed
 * request writes no file). Returns the variants created.
 */
async function writeRelations(
  db: Tx,
  storeId: string,
  row: Pick<ProductRow, 'id' | 'handle'>,
  prepared: PreparedProduct,
  collections: string[] | undefined,
  ctx: ProductContext,
  fresh = false,
): Promise<VariantRow[]> {
  let variants: VariantRow[] = [];
  const entries = indexEntries(prepared.variants, prepared.variantsExactly);
  // variantsExactly without options picks among the stored options' combinations
  const options = prepared.options ?? (prepared.variantsExactly ? prepared.optionsBefore : undefined);
  if (options) {
    const defaults = { id: row.id, handle: row.handle, price: prepared.price, comparePrice: prepared.comparePrice };
    variants = await syncVariants(db, storeId, defaults, options, entries, fresh ? undefined : (prepared.optionsBefore ?? []));
  } else if (entries.byKey.size > 0) {
    // without options a new product has no variant for an entry to match
    if (fresh) applyEntries(entries, []);
    else await applyVariantEntries(db, storeId, row.id, entries);
  }
  if (collections !== undefined) await setProductCollections(db, storeId, row.id, collections);
  await storeMedia(ctx.media, prepared.pending);
  return variants;
}

/**
 * One transaction (joined when `db` already is one): a failure anywhere leaves nothing behind. An import
 * write passes its line's digest (`importDigest`), recorded with the row (see updateProductRow).
 */
export function createProduct(
  db: Db,
  storeId: string,
  input: CreateProductInput,
  ctx: ProductContext,
  importDigest?: string,
): Promise<Product> {
  return withTx(db, (trx) => insertNewProduct(trx, storeId, input, ctx, importDigest));
}

/** The row of a new product as it is inserted (its handle aside: supplied, or made from the title). */
export function newProductValues(storeId: string, input: CreateProductInput, prepared: PreparedProduct, now: Date, importDigest?: string) {
  return {
    ...prepared.columns,
    store_id: storeId,
    id: newId(),
    title: input.title.trim(),
    return_config: prepared.returnConfig,
    created_at: now,
    updated_at: now,
    ...(importDigest !== undefined ? { import_digest: importDigest, import_digest_at: now } : {}),
  };
}

/**
 * The SKUs a new product's variants get under a handle, as writeRelations will create them (freshVariants'
 * plan); null when the plan fails: its 400 then comes from writeRelations, after the handle's.
 */
function plannedSkus(id: string, prepared: PreparedProduct): VariantSkus {
  return (handle) => {
    if (!prepared.options) return [];
    try {
      const defaults = { id, handle, price: prepared.price, comparePrice: prepared.comparePrice };
      return freshVariants(defaults, prepared.options, indexEntries(prepared.variants, prepared.variantsExactly)).map(
        (variant) => variant.values.sku,
      );
    } catch {
      return null;
    }
  };
}

async function insertNewProduct(
  db: Tx,
  storeId: string,
  input: CreateProductInput,
  ctx: ProductContext,
  importDigest?: string,
): Promise<Product> {
  const prepared = await prepareProduct(db, storeId, input, null, ctx);
  const values = newProductValues(storeId, input, prepared, new Date(), importDigest);
  const row = await insertProduct(db, values, input.title, prepared.handle, plannedSkus(values.id, prepared));
  const variants = await writeRelations(db, storeId, row, prepared, input.selectedCollections, ctx, true);
  await noteLevelsMovedBy(db, storeId, input, { creating: true });
  // The output is what was written (the product row as returned, the variants as inserted), not a
  // read back; memberships are read, as the collections' order is theirs.
  if (input.selectedCollections !== undefined) return getProduct(db, storeId, row.id);
  return toProductOutput(row, variants.map(toVariantOutput), []);
}

/** The row is locked (hence `Tx`), the request is merged into it and checked as a whole. */
export async function updateProduct(
  db: Tx,
  storeId: string,
  id: string,
  input: UpdateProductInput,
  ctx: ProductContext,
  importDigest?: string,
): Promise<Product> {
  const current = found(isId(id) && (await lockProduct(db, storeId, id)), 'Product');
  const prepared = await prepareProduct(db, storeId, input, current, ctx);
  if (prepared.handle !== undefined) await assertHandleFree(db, storeId, id, prepared.handle);
  const columns = { ...prepared.columns, ...(prepared.handle !== undefined ? { handle: prepared.handle } : {}) };
  const row = await updateProductRow(db, storeId, id, columns, importDigest);
  await writeRelations(db, storeId, row, prepared, input.selectedCollections, ctx);
  await noteLevelsMovedBy(db, storeId, input);
  return getProduct(db, storeId, id);
}

/** Variants, their attribute combinations and collection memberships go with it (foreign-key cascades). */
export async function deleteProduct(db: Db, storeId: string, id: string): Promise<{ id: string }> {
  return withTx(db, async (trx) => {
    // its collections lose it from their selectedProducts: their updatedAt and events (the cascade would not say)
    if (isId(id)) await setProductCollections(trx, storeId, id, []);
    return deleteRecord(trx, 'products', storeId, id, 'Product');
  });
}

/** Filters of the list that only narrow it: `?collection=` naming no collection of the store is an empty page. */
async function collectionCondition(db: Db, storeId: string, collectionId: string): Promise<Expression<SqlBool> | null> {
  if (!isId(collectionId)) return null;
  try {
    return await productsInCollection(db, storeId, collectionId);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  }
}

/** A collection's members as a condition over the unaliased `products` table (GET /collections/{id}/products). */
export interface Membership {
  condition: Expression<SqlBool>;
  collectionId: string;
}

/** A list's base query, before its filters: products of the store, selecting what the list sends. */
type ProductBase = SelectQueryBuilder<DB, 'products', object>;

/**
 * The product list over `base` (its select decides what each row carries): the filters, the narrowing of a
 * membership and where the exact total comes from, as runList and runListPage take them; null when the
 * list is empty whatever the page (a collection filter naming no collection of the store).
 */
async function productListScope<B extends ProductBase>(
  db: Db,
  storeId: string,
  base: B,
  query: ProductListQuery,
  membership?: Membership,
  kept: KeptReads = {},
) {
  const catalog = catalogFilters(query);
  const filters = [...columnFilters(query), ...catalog];
  const filtered = whereAll(base, filters);
  // Membership (manual or smart) narrows the list without an index in sort order: runList lists it like a search.
  const narrowing = membership ? [membership.condition] : [];
  if (query.collection !== undefined) {
    const condition = await collectionCondition(db, storeId, query.collection);
    if (!condition) return null;
    narrowing.push(condition);
  }
  const narrow = allOf(narrowing);
  // Only the status filter is a counter key; a handle, a catalog filter or a narrowing condition (membership) counts.
  const counted = query.handle === undefined && catalog.length === 0 && !narrow;
  const total = counted ? () => countedTotal(db, storeId, { list: 'products', status: query.status }) : undefined;
  const totalSql = counted ? countedTotalSql(storeId, { list: 'products', status: query.status }) : undefined;
  const within = membership ? [membership.collectionId] : undefined;
  const unfiltered = filters.length === 0 && !narrow;
  const version = productChangesSql(storeId);
  const searches = kept.searches ? { cache: kept.searches, version } : undefined;
  const anchors = kept.anchors ? { cache: kept.anchors, version } : undefined;
  return { filtered, scope: { db, storeId, narrow, total, counted: totalSql, within, unfiltered, searches, anchors } };
}

/** The product list over `base`: the page and its exact total, as runList computes them. */
async function runProductList<B extends ProductBase>(
  db: Db,
  storeId: string,
  base: B,
  query: ProductListQuery,
  membership?: Membership,
  kept?: KeptReads,
) {
  const list = await productListScope(db, storeId, base, query, membership, kept);
  if (!list) return { rows: [], pagination: paginationOf(query, 0) };
  return runList(list.filtered, query, productListSpec, list.scope);
}

/**
 * A page of the product list as GET /products/{id}'s JSON texts, without a total (runListPage): what the
 * console lists, as fast at a million products as at a thousand whatever the filters (CONTRACT §12).
 */
export async function listProductPage(
  db: Db,
  storeId: string,
  query: ProductListQuery,
): Promise<{ texts: string[]; nextCursor: string | null; prevCursor: string | null }> {
  const list = await productListScope(db, storeId, selectProductDocuments(db, storeId), query);
  if (!list) return { texts: [], nextCursor: null, prevCursor: null };
  const { rows, nextCursor, prevCursor } = await runListPage(list.filtered, query, productListSpec, list.scope);
  return { texts: await documentTexts(rows as DocumentOfRow[], (ids) => getProductsByIds(db, storeId, ids)), nextCursor, prevCursor };
}

/** A product as the console's list shows it: GET /products/{id}'s fields of that name, and its variants' number. */
export interface ProductSummary {
  id: string;
  title: string;
  status: string;
  vendor: string | null;
  productType: string | null;
  totalStock: number | null;
  updatedAt: string;
  variantCount: number;
}

/**
 * The same page as listProductPage, each product as its ProductSummary: no document read or parsed. A search
 * without other filters is read from the matches `kept` (the app's, shared with GET /products): a page costs its
 * rows, not the search's matches, however large the catalog (issue 42).
 */
export async function listProductSummaryPage(db: Db, storeId: string, query: ProductListQuery, kept?: KeptReads) {
  const list = await productListScope(db, storeId, selectProductSummaries(db, storeId), query, undefined, kept);
  if (!list) return { summaries: [] as ProductSummary[], nextCursor: null, prevCursor: null };
  const { rows, nextCursor, prevCursor } = await runListPage(list.filtered, query, productListSpec, list.scope);
  const summaries = rows.map(
    (row): ProductSummary => ({
      id: row.id,
      title: row.title,
      status: row.status,
      vendor: row.vendor,
      productType: row.product_type,
      totalStock: row.total_stock,
      updatedAt: iso(row.updated_at),
      variantCount: row.variant_count,
    }),
  );
  return { summaries, nextCursor, prevCursor };
}

/** The product list (also GET /collections/{id}/products, which passes its `membership`), as outputs. */
export async function listProducts(db: Db, storeId: string, query: ProductListQuery, membership?: Membership) {
  const { rows, pagination } = await runProductList(db, storeId, selectProductsWithRelations(db, storeId), query, membership);
  return { data: toProductOutputs(rows as ProductWithRelationsRow[]), pagination };
}

/**
 * The same list as each product's canonical JSON, what GET /products/{id} sends: the stored document while it
 * is current (the xmin rule of products.documents.ts), else the product built from its rows. A page reads 25
 * documents instead of aggregating 25 products' variants, and nothing is parsed, mapped or serialized.
 * `kept`: what the app keeps in memory between pages (exact by the store's catalog version): a search's matches
 * (src/reads/search-cache.ts), the page anchors of the list without filters (src/reads/page-anchors.ts).
 */
export function listProductTexts(db: Db, storeId: string, query: ProductListQuery, membership?: Membership, kept?: KeptReads) {
  const read = async () => {
    const { rows, pagination } = await runProductList(db, storeId, selectProductDocuments(db, storeId), query, membership, kept);
    const texts = await documentTexts(rows as DocumentOfRow[], (ids) => getProductsByIds(db, storeId, ids));
    // the answer's bytes once for every request sharing this read (storedListBytes)
    return { texts, pagination, bytes: storedListBytes(texts, pagination) };
  };
  // A collection's page depends on its rules as this request read them: it is not shared.
  return membership ? read() : sharedRead(db, `products ${storeId} ${JSON.stringify(query)}`, read);
}

/** The products among `ids` as their JSON texts, in id order (as listProductTexts: stored documents first). */
export async function getProductTextsByIds(db: Db, storeId: string, ids: string[]): Promise<string[]> {
  const rows = await selectByIds(selectProductDocuments(db, storeId), ids, 'products.id');
  return documentTexts(rows, (missing) => getProductsByIds(db, storeId, missing));
}
