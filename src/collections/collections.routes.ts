import { forbidden } from '../errors.js';
import type { App, AppContext } from '../http/context.js';
import { ProductListEnvelope } from '../products/products.schema.js';
import { listProducts } from '../products/products.service.js';
import { DeletedEnvelope, IdParams } from '../shared/common.schema.js';
import { ok, okList } from '../shared/envelope.js';
import { hasScope } from '../shared/scopes.js';
import type { ImageUploads } from './collections.checks.js';
import {
  CollectionEnvelope,
  CollectionListEnvelope,
  CollectionListQuery,
  CollectionProductsQuery,
  CreateCollectionBody,
  UpdateCollectionBody,
} from './collections.schema.js';
import { createCollection, deleteCollection, getCollection, listCollections, updateCollection } from './collections.service.js';
import { productsInCollection } from './membership.js';

const tags = ['Collections'];
const read = { scope: 'collections:read' };
const write = { scope: 'collections:write' };

function registerReads(app: App, { db }: AppContext): void {
  app.get(
    '/collections',
    {
      config: read,
      schema: { tags, summary: 'List collections', querystring: CollectionListQuery, response: { 200: CollectionListEnvelope } },
    },
    async (request) => {
      const { data, pagination } = await listCollections(db, request.auth.storeId, request.query);
      return okList(data, pagination);
    },
  );
  app.get(
    '/collections/:id',
    { config: read, schema: { tags, summary: 'Get a collection', params: IdParams, response: { 200: CollectionEnvelope } } },
    async (request) => ok(await getCollection(db, request.auth.storeId, request.params.id)),
  );
}

/** Beyond SPEC: the member products (manual or smart), through the products list itself. */
function registerMemberProducts(app: App, { db }: AppContext): void {
  app.get(
    '/collections/:id/products',
    {
      config: read,
      // The answer is product data: an API key needs products:read as well as collections:read.
      preHandler: async (request) => {
        if (!hasScope(request.auth.scopes, 'products:read')) throw forbidden('products:read');
      },
      schema: {
        tags,
        summary: 'List the member products of a collection (manual or smart), paginated like GET /products',
        params: IdParams,
        querystring: CollectionProductsQuery,
        response: { 200: ProductListEnvelope },
      },
    },
    async (request) => {
      const { storeId } = request.auth;
      const condition = await productsInCollection(db, storeId, request.params.id);
      // Only the declared parameters: other query keys (GET /products' filters) are not offered here.
      const { page, limit, sort, search } = request.query;
      const { data, pagination } = await listProducts(db, storeId, { page, limit, sort, search }, condition);
      return okList(data, pagination);
    },
  );
}

function registerWrites(app: App, { db }: AppContext, uploads: ImageUploads): void {
  app.post(
    '/collections',
    { config: write, schema: { tags, summary: 'Create a collection', body: CreateCollectionBody, response: { 201: CollectionEnvelope } } },
    async (request, reply) => {
      const created = await db.transaction().execute((trx) => createCollection(trx, request.auth.storeId, request.body, uploads));
      return reply.status(201).send(ok(created));
    },
  );
  app.patch(
    '/collections/:id',
    {
      config: write,
      schema: { tags, summary: 'Update a collection', params: IdParams, body: UpdateCollectionBody, response: { 200: CollectionEnvelope } },
    },
    async (request) =>
      ok(await db.transaction().execute((trx) => updateCollection(trx, request.auth.storeId, request.params.id, request.body, uploads))),
  );
  app.delete(
    '/collections/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Delete a collection (children are detached, memberships removed)',
        params: IdParams,
        response: { 200: DeletedEnvelope },
      },
    },
    async (request) => ok(await db.transaction().execute((trx) => deleteCollection(trx, request.auth.storeId, request.params.id))),
  );
}

export async function registerCollectionRoutes(app: App, ctx: AppContext): Promise<void> {
  registerReads(app, ctx);
  registerMemberProducts(app, ctx);
  registerWrites(app, ctx, { store: ctx.media, maxBytes: ctx.config.mediaMaxBytes });
}
