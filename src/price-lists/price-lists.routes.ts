import type { App, AppContext } from '../http/index.js';
import { sendWrite } from '../http/index.js';
import { DeletedEnvelope, type EventType, IdParams, ok, okList } from '../shared/index.js';
import {
  CreatePriceListBody,
  PriceListEnvelope,
  PriceListListEnvelope,
  PriceListListQuery,
  UpdatePriceListBody,
} from './price-lists.schema.js';
import {
  createPriceList,
  currentPriceList,
  deletePriceList,
  getPriceList,
  listPriceLists,
  updatePriceList,
} from './price-lists.service.js';
import {
  DeletePricesBody,
  DeletePricesEnvelope,
  PriceListPricesEnvelope,
  PriceListPricesQuery,
  PutPricesBody,
  PutPricesEnvelope,
} from './prices.schema.js';
import { listPrices, putPrices, removePrices } from './prices.service.js';
import { PricesEnvelope, PricesQuery } from './resolver.schema.js';
import { pricesOfProducts } from './resolver.service.js';

const tags = ['Price lists'];
const read = { scope: 'products:read' };
const write = (event: EventType) => ({ scope: 'products:write', event });

/** /price-lists and their fixed prices (CONTRACT §14). */
export async function registerPriceListRoutes(app: App, ctx: AppContext): Promise<void> {
  registerListRoutes(app, ctx);
  registerPriceRoutes(app, ctx);
  app.get(
    '/prices',
    {
      config: read,
      schema: {
        tags,
        summary: 'Resolve prices: every variant and simple product of up to 250 products, for a currency, a customer and a time',
        querystring: PricesQuery,
        response: { 200: PricesEnvelope },
      },
    },
    async (request) => ok(await pricesOfProducts(ctx.db, request.auth.storeId, request.query)),
  );
}

function registerListRoutes(app: App, ctx: AppContext): void {
  const { db } = ctx;
  app.get(
    '/price-lists',
    {
      config: read,
      schema: { tags, summary: 'List price lists', querystring: PriceListListQuery, response: { 200: PriceListListEnvelope } },
    },
    async (request) => {
      const { data, pagination } = await listPriceLists(db, request.auth.storeId, request.query);
      return okList(data, pagination);
    },
  );
  app.post(
    '/price-lists',
    {
      config: write('priceList.created'),
      schema: {
        tags,
        summary: 'Create a price list (at most 1,000 per store)',
        body: CreatePriceListBody,
        response: { 201: PriceListEnvelope },
      },
    },
    (request, reply) => sendWrite(ctx, request, reply, (trx, storeId) => createPriceList(trx, storeId, request.body), 201),
  );
  app.get(
    '/price-lists/:id',
    { config: read, schema: { tags, summary: 'Get a price list', params: IdParams, response: { 200: PriceListEnvelope } } },
    async (request) => ok(await getPriceList(db, request.auth.storeId, request.params.id)),
  );
  app.patch(
    '/price-lists/:id',
    {
      config: write('priceList.updated'),
      schema: { tags, summary: 'Update a price list', params: IdParams, body: UpdatePriceListBody, response: { 200: PriceListEnvelope } },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => updatePriceList(trx, storeId, request.params.id, request.body), {
        current: currentPriceList(request.params.id),
      }),
  );
  app.delete(
    '/price-lists/:id',
    {
      config: write('priceList.deleted'),
      schema: { tags, summary: 'Delete a price list and its fixed prices', params: IdParams, response: { 200: DeletedEnvelope } },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => deletePriceList(trx, storeId, request.params.id), {
        current: currentPriceList(request.params.id),
      }),
  );
}

/** A list's fixed prices; a change of them is its priceList.updated (the list as GET returns it). */
function registerPriceRoutes(app: App, ctx: AppContext): void {
  const { db } = ctx;
  const listEvent = (id: string) => (trx: Parameters<typeof getPriceList>[0], storeId: string) => getPriceList(trx, storeId, id);
  app.get(
    '/price-lists/:id/prices',
    {
      config: read,
      schema: {
        tags,
        summary: "List a price list's fixed prices (cursor paging as every list)",
        params: IdParams,
        querystring: PriceListPricesQuery,
        response: { 200: PriceListPricesEnvelope },
      },
    },
    async (request) => {
      const { data, pagination } = await listPrices(db, request.auth.storeId, request.params.id, request.query);
      return okList(data, pagination);
    },
  );
  app.put(
    '/price-lists/:id/prices',
    {
      config: { ...write('priceList.updated'), etag: false },
      schema: {
        tags,
        summary: 'Set fixed prices (1 to 1,000 items, upsert; all apply or none does)',
        params: IdParams,
        body: PutPricesBody,
        response: { 200: PutPricesEnvelope },
      },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => putPrices(trx, storeId, request.params.id, request.body), {
        eventData: listEvent(request.params.id),
      }),
  );
  app.post(
    '/price-lists/:id/prices/delete',
    {
      config: { ...write('priceList.updated'), etag: false },
      schema: {
        tags,
        summary: 'Remove fixed prices (1 to 1,000 items; the items then resolve as if the list had none)',
        params: IdParams,
        body: DeletePricesBody,
        response: { 200: DeletePricesEnvelope },
      },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => removePrices(trx, storeId, request.params.id, request.body), {
        eventData: listEvent(request.params.id),
      }),
  );
}
