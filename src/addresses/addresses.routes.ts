import type { App, AppContext } from '../http/index.js';
import { sendWrite } from '../http/index.js';
import type { EventType } from '../shared/index.js';
import { IdParams, ok } from '../shared/index.js';
import { AddressArrayEnvelope, AddressBody, AddressEnvelope, CustomerIdParams, NullEnvelope } from './addresses.schema.js';
import { createAddress, currentAddress, deleteAddress, getAddress, listAddresses, updateAddress } from './addresses.service.js';

const tags = ['Addresses'];
// Addresses are part of the customer resource (CONTRACT §4).
const read = { scope: 'customers:read' };
const write = (event: EventType) => ({ scope: 'customers:write', event });

export async function registerAddressRoutes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;
  app.get(
    '/customers/:customerId/addresses',
    {
      config: read,
      schema: {
        tags,
        summary: "List a customer's addresses (newest first, no pagination)",
        params: CustomerIdParams,
        response: { 200: AddressArrayEnvelope },
      },
    },
    async (request) => ok(await listAddresses(db, request.auth.storeId, request.params.customerId)),
  );
  app.post(
    '/customers/:customerId/addresses',
    {
      config: write('address.created'),
      schema: {
        tags,
        summary: 'Add an address to a customer (the first one is the default)',
        params: CustomerIdParams,
        body: AddressBody,
        response: { 201: AddressEnvelope },
      },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => createAddress(trx, storeId, request.params.customerId, request.body), 201),
  );
  app.get(
    '/addresses/:id',
    { config: read, schema: { tags, summary: 'Get an address', params: IdParams, response: { 200: AddressEnvelope } } },
    async (request) => ok(await getAddress(db, request.auth.storeId, request.params.id)),
  );
  app.patch(
    '/addresses/:id',
    {
      config: write('address.updated'),
      schema: { tags, summary: 'Update an address', params: IdParams, body: AddressBody, response: { 200: AddressEnvelope } },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => updateAddress(trx, storeId, request.params.id, request.body), {
        current: currentAddress(request.params.id),
      }),
  );
  app.delete(
    '/addresses/:id',
    {
      config: write('address.deleted'),
      schema: {
        tags,
        summary: 'Delete an address (the most recent remaining one becomes the default)',
        params: IdParams,
        response: { 200: NullEnvelope },
      },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => deleteAddress(trx, storeId, request.params.id), {
        current: currentAddress(request.params.id),
      }),
  );
}
