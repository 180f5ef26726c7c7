import type { App, AppContext } from '../http/index.js';
import { sendWrite } from '../http/index.js';
import type { EventType } from '../shared/index.js';
import { DeletedEnvelope, ErrorEnvelope, IdParams, ok, okList } from '../shared/index.js';
import { CreateOrderBody, OrderEnvelope, OrderListEnvelope, OrderListQuery, UpdateOrderBody } from './orders.schema.js';
import { createOrder, currentOrder, deleteOrder, getOrder, listOrders, updateOrder } from './orders.service.js';

const tags = ['Orders'];
const read = { scope: 'orders:read' };
const write = (event: EventType) => ({ scope: 'orders:write', event });

export async function registerOrderRoutes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;
  app.get(
    '/orders',
    { config: read, schema: { tags, summary: 'List orders', querystring: OrderListQuery, response: { 200: OrderListEnvelope } } },
    async (request) => {
      const { data, pagination } = await listOrders(db, request.auth.storeId, request.query);
      return okList(data, pagination);
    },
  );
  app.post(
    '/orders',
    {
      config: write('order.created'),
      schema: {
        tags,
        summary: 'Create an order (custom checkout or migration)',
        body: CreateOrderBody,
        response: {
          201: OrderEnvelope,
          409: {
            ...ErrorEnvelope,
            description: 'INSUFFICIENT_STOCK: inventoryBehaviour "decrement" and a variant is short (a detail per short item)',
          },
        },
      },
    },
    (request, reply) => sendWrite(ctx, request, reply, (trx, storeId) => createOrder(trx, storeId, request.body), 201),
  );
  app.get(
    '/orders/:id',
    { config: read, schema: { tags, summary: 'Get an order', params: IdParams, response: { 200: OrderEnvelope } } },
    async (request) => ok(await getOrder(db, request.auth.storeId, request.params.id)),
  );
  app.patch(
    '/orders/:id',
    {
      config: write('order.updated'),
      schema: {
        tags,
        summary: 'Update status, payment status, tracking (replaced) and refund (merged); cancel with restock',
        params: IdParams,
        body: UpdateOrderBody,
        response: { 200: OrderEnvelope },
      },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => updateOrder(trx, storeId, request.params.id, request.body), {
        current: currentOrder(request.params.id),
      }),
  );
  // Beyond SPEC, so a failed migration can be undone (CONTRACT §7); stock is not put back.
  app.delete(
    '/orders/:id',
    {
      config: write('order.deleted'),
      schema: {
        tags,
        summary: 'Delete an order (no restock: cancel with restock first)',
        params: IdParams,
        response: { 200: DeletedEnvelope },
      },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => deleteOrder(trx, storeId, request.params.id), {
        current: currentOrder(request.params.id),
      }),
  );
}
