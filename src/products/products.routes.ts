import type { App, AppContext } from '../http/context.js';
import { sendWrite } from '../http/write.js';
import { DeletedEnvelope, IdParams } from '../shared/common.schema.js';
import { ok, okList } from '../shared/envelope.js';
import { currentProduct, currentVariant } from './products.current.js';
import {
  CreateProductBody,
  ProductEnvelope,
  ProductListEnvelope,
  ProductListQuery,
  UpdateProductBody,
  UpdateVariantBody,
  VariantArrayEnvelope,
  VariantEnvelope,
  VariantParams,
} from './products.schema.js';
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from './products.service.js';
import { listVariants, updateVariant } from './variants.service.js';

const tags = ['Products'];
const read = { scope: 'products:read' };
const write = { scope: 'products:write' };

export async function registerProductRoutes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;
  app.get(
    '/products',
    { config: read, schema: { tags, summary: 'List products', querystring: ProductListQuery, response: { 200: ProductListEnvelope } } },
    async (request) => {
      const { data, pagination } = await listProducts(db, request.auth.storeId, request.query);
      return okList(data, pagination);
    },
  );
  app.post(
    '/products',
    {
      config: write,
      schema: {
        tags,
        summary: 'Create a product (variants generated from options)',
        body: CreateProductBody,
        response: { 201: ProductEnvelope },
      },
    },
    (request, reply) => sendWrite(ctx, request, reply, (trx, storeId) => createProduct(trx, storeId, request.body, ctx), 201),
  );
  app.get(
    '/products/:id',
    { config: read, schema: { tags, summary: 'Get a product', params: IdParams, response: { 200: ProductEnvelope } } },
    async (request) => ok(await getProduct(db, request.auth.storeId, request.params.id)),
  );
  app.patch(
    '/products/:id',
    {
      config: write,
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
      config: write,
      schema: { tags, summary: 'Delete a product, its variants and memberships', params: IdParams, response: { 200: DeletedEnvelope } },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => deleteProduct(trx, storeId, request.params.id), {
        current: currentProduct(request.params.id),
      }),
  );
  registerVariantRoutes(app, ctx);
}

function registerVariantRoutes(app: App, ctx: AppContext): void {
  const { db } = ctx;
  app.get(
    '/products/:id/variants',
    { config: read, schema: { tags, summary: "A product's variants", params: IdParams, response: { 200: VariantArrayEnvelope } } },
    async (request) => ok(await listVariants(db, request.auth.storeId, request.params.id)),
  );
  app.patch(
    '/products/:id/variants/:variantId',
    {
      config: write,
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
        },
      ),
  );
}
