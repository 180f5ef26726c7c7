import type { RecordKindFeed } from '../events/index.js';
import type { App, AppContext } from '../http/index.js';
import { sendStoredList, sendWrite } from '../http/index.js';
import type { EventType } from '../shared/index.js';
import { DeletedEnvelope, hashPassword, IdParams, ok } from '../shared/index.js';
import { writeCustomerDocuments } from './customers.documents.js';
import { CreateCustomerBody, CustomerEnvelope, CustomerListEnvelope, CustomerListQuery, UpdateCustomerBody } from './customers.schema.js';
import {
  createCustomer,
  currentCustomer,
  deleteCustomer,
  getCustomer,
  getCustomersByIds,
  listCustomerTexts,
  updateCustomer,
} from './customers.service.js';

const tags = ['Customers'];

/** How the feed reads customers, and the stored document every customer a write creates or changes gets with its event. */
export const customerRecordKind: RecordKindFeed = {
  load: getCustomer,
  loadMany: getCustomersByIds,
  storeDocuments: writeCustomerDocuments,
};
const read = { scope: 'customers:read' };
const write = (event: EventType) => ({ scope: 'customers:write', event });

export async function registerCustomerRoutes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;
  app.get(
    '/customers',
    { config: read, schema: { tags, summary: 'List customers', querystring: CustomerListQuery, response: { 200: CustomerListEnvelope } } },
    // each customer's stored document (or the customer built from its row, without one): no serializing
    async (request, reply) => sendStoredList(reply, await listCustomerTexts(db, request.auth.storeId, request.query)),
  );
  app.post(
    '/customers',
    {
      config: write('customer.created'),
      schema: {
        tags,
        summary: 'Create a customer (with an optional first address)',
        body: CreateCustomerBody,
        response: { 201: CustomerEnvelope },
      },
    },
    async (request, reply) => {
      // The same memory-hard hash as admins, computed before the transaction opens.
      const passwordHash = await hashPassword(request.body.password);
      return sendWrite(ctx, request, reply, (trx, storeId) => createCustomer(trx, storeId, request.body, passwordHash), 201);
    },
  );
  app.get(
    '/customers/:id',
    { config: read, schema: { tags, summary: 'Get a customer', params: IdParams, response: { 200: CustomerEnvelope } } },
    async (request) => ok(await getCustomer(db, request.auth.storeId, request.params.id)),
  );
  app.patch(
    '/customers/:id',
    {
      config: write('customer.updated'),
      schema: { tags, summary: 'Update a customer', params: IdParams, body: UpdateCustomerBody, response: { 200: CustomerEnvelope } },
    },
    async (request, reply) => {
      // hashed before the transaction opens, as on create
      const passwordHash = request.body.password === undefined ? undefined : await hashPassword(request.body.password);
      return sendWrite(ctx, request, reply, (trx, storeId) => updateCustomer(trx, storeId, request.params.id, request.body, passwordHash), {
        current: currentCustomer(request.params.id),
      });
    },
  );
  // Beyond SPEC, so a failed migration can be undone (CONTRACT §7).
  app.delete(
    '/customers/:id',
    {
      config: write('customer.deleted'),
      schema: {
        tags,
        summary: 'Delete a customer (its addresses too; its orders stay, with userId null)',
        params: IdParams,
        response: { 200: DeletedEnvelope },
      },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => deleteCustomer(trx, storeId, request.params.id), {
        current: currentCustomer(request.params.id),
      }),
  );
}
