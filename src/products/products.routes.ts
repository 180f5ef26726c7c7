import { productsInCollection } from '../collections/index.js';
import { forbidden } from '../errors.js';
import type { RecordKindFeed } from '../events/index.js';
import type { App, AppContext } from '../http/index.js';
import { sendStoredList, sendStoredRecord, sendWrite } from '../http/index.js';
import { PriceContextQuery } from '../price-lists/index.js';
import type { EventType } from '../shared/index.js';
import { DeletedEnvelope, hasScope, IdParams, ok, okList } from '../shared/index.js';
import { keptReadsOf } from './kept-reads.js';
import { pricedProductDocument } from './priced.js';
import { storedProduct } from './product-documents.sql.js';
import { currentProduct, currentVariant } from './products.current.js';
import { writeProductDocuments } from './products.documents.js';
import {
  CollectionProductsQuery,
  CreateProductBody,
  ProductEnvelope,
  ProductListEnvelope,
  ProductListQuery,
  UpdateProductBody,
  UpdateVariantBody,
  VariantEnvelope,
  VariantListEnvelope,
  VariantListQuery,
  VariantParams,
} from './products.schema.js';
import { createProduct, deleteProduct, getProduct, getProductsByIds, listProductTexts, updateProduct } from './products.service.js';
import { deleteVariant, listVariants, updateVariant } from './variants.service.js';

const tags = ['Products'];
const read = { scope: 'products:read' };
const write = (event: EventType) => ({ scope: 'products:write', event });

/**
 * Products in the feed (src/app.ts passes it in): derived changes of other folders (a collection's members)
 * read products through it, and every product a write creates or changes gets its stored document with its event.
 */
export const productRecordKind: RecordKindFeed = { load: getProduct, loadMany: getProductsByIds, storeDocuments: writeProductDocuments };

export async function registerProductRoutes(app: App, ctx: AppContext): Promise<void> {
  registerListRoutes(app, ctx);
  registerItemRoutes(app, ctx);
  registerVariantRoutes(app, ctx);
  registerCollectionMemberRoute(app, ctx);
}

/** /products: list and create. */
function registerListRoutes(app: App, ctx: AppContext): void {
  const { db } = ctx;
  // A search's matches kept between its pages and the list's page anchors, this app's own, shared with the console's list (kept-reads.ts)
  const kept = keptReadsOf(ctx);
  app.get(
    '/products',
    { config: read, schema: { tags, summary: 'List products', querystring: ProductListQuery, response: { 200: ProductListEnvelope } } },
    async (request, reply) => sendStoredList(reply, await listProductTexts(db, request.auth.storeId, request.query, undefined, kept)),
  );
  app.post(
    '/products',
    {
      config: write('product.created'),
      schema: {
        tags,
        summary: 'Create a product (variants generated from options)',
        body: CreateProductBody,
        response: { 201: ProductEnvelope },
      },
    },
    (request, reply) => sendWrite(ctx, request, reply, (trx, storeId) => createProduct(trx, storeId, request.body, ctx), 201),
  );
}

/** /products/:id: read, update, delete. */
function registerItemRoutes(app: App, ctx: AppContext): void {
  const { db } = ctx;
  app.get(
    '/products/:id',
    {
      config: read,
      schema: {
        tags,
        summary: 'Get a product (with currency or customerId: each variant’s resolvedPrice)',
        params: IdParams,
        querystring: PriceContextQuery,
        response: { 200: ProductEnvelope },
      },
    },
    // The stored document while it is the product's current one (every write through the API leaves it so),
    // else the product built from its rows.
    async (request, reply) => {
      if (request.query.currency !== undefined || request.query.customerId !== undefined) {
        return sendStoredRecord(reply, await pricedProductDocument(db, request.auth.storeId, request.params.id, request.query));
      }
      const stored = await storedProduct(db, request.auth.storeId, request.params.id);
      return stored ? sendStoredRecord(reply, stored) : ok(await getProduct(db, request.auth.storeId, request.params.id));
    },
  );
  app.patch(
    '/products/:id',
    {
      config: write('product.updated'),
      schema: {
        tags,
        summary: 'Update a product (options resync variants)',
        params: IdParams,
        body: UpdateProductBody,
        response: { 200: ProductEnvelope },
      },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => updateProduct(trx, storeId, request.params.id, request.body, ctx), {
        current: currentProduct(request.params.id),
      }),
  );
  app.delete(
    '/products/:id',
    {
      config: write('product.deleted'),
      schema: { tags, summary: 'Delete a product, its variants and memberships', params: IdParams, response: { 200: DeletedEnvelope } },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => deleteProduct(trx, storeId, request.params.id), {
        current: currentProduct(request.params.id),
      }),
  );
}

function registerVariantRoutes(app: App, ctx: AppContext): void {
  const { db } = ctx;
  app.get(
    '/products/:id/variants',
    {
      config: read,
      schema: {
        tags,
        summary: "A product's variants",
        params: IdParams,
        querystring: VariantListQuery,
        response: { 200: VariantListEnvelope },
      },
    },
    async (request) => {
      const { data, pagination } = await listVariants(db, request.auth.storeId, request.params.id, request.query);
      return okList(data, pagination);
    },
  );
  app.patch(
    '/products/:id/variants/:variantId',
    {
      config: write('product.updated'),
      schema: { tags, summary: 'Update a variant', params: VariantParams, body: UpdateVariantBody, response: { 200: VariantEnvelope } },
    },
    (request, reply) =>
      sendWrite(
        ctx,
        request,
        reply,
        (trx, storeId) => updateVariant(trx, storeId, request.params.id, request.params.variantId, request.body),
        {
          current: currentVariant(request.params.id, request.params.variantId),
          // A variant's change is its product's: the event carries the product as GET returns it.
          eventData: (trx, storeId) => getProduct(trx, storeId, request.params.id),
        },
      ),
  );
  app.delete(
    '/products/:id/variants/:variantId',
    {
      config: write('product.updated'),
      schema: {
        tags,
        summary: 'Delete a variant (a combination the product is not sold in)',
        description: 'Its stock and prices go with it; the last variant of a product cannot be deleted (400).',
        params: VariantParams,
        response: { 200: DeletedEnvelope },
      },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => deleteVariant(trx, storeId, request.params.id, request.params.variantId), {
        current: currentVariant(request.params.id, request.params.variantId),
        eventData: (trx, storeId) => getProduct(trx, storeId, request.params.id),
      }),
  );
}

/**
 * Beyond SPEC: GET /collections/{id}/products, the member products (manual or smart) of a
 * collection. It lives here, not in collections, because it is the product list filtered by a
 * membership condition: products already depend on collections (membership), so this keeps the
 * dependency one way (products -> collections) instead of a cycle.
 */
function registerCollectionMemberRoute(app: App, { db }: AppContext): void {
  app.get(
    '/collections/:id/products',
    {
      config: { scope: 'collections:read' },
      // The answer is product data: an API key needs products:read as well as collections:read.
      preHandler: async (request) => {
        if (!hasScope(request.auth.scopes, 'products:read')) throw forbidden('products:read');
      },
      schema: {
        tags: ['Collections'],
        summary: 'List the member products of a collection (manual or smart), paginated like GET /products',
        description: 'An API key needs `products:read` as well.',
        params: IdParams,
        querystring: CollectionProductsQuery,
        response: { 200: ProductListEnvelope },
      },
    },
    async (request, reply) => {
      const { storeId } = request.auth;
      const condition = await productsInCollection(db, storeId, request.params.id);
      // Only the declared parameters: other query keys (GET /products' filters) are not offered here.
      const { page, limit, sort, search, updatedSince, cursor } = request.query;
      const query = { page, limit, sort, search, updatedSince, cursor };
      return sendStoredList(reply, await listProductTexts(db, storeId, query, { condition, collectionId: request.params.id }));
    },
  );
}
