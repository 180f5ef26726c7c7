import type { App, AppContext } from '../http/index.js';
import { sendWrite } from '../http/index.js';
import { DeletedEnvelope, IdParams, ok, okList } from '../shared/index.js';
import { CreateLocationBody, LocationEnvelope, LocationListEnvelope, LocationListQuery, UpdateLocationBody } from './locations.schema.js';
import { createLocation, currentLocation, deleteLocation, getLocation, listLocations, updateLocation } from './locations.service.js';

const tags = ['Locations'];
const read = { scope: 'products:read' };
// CONTRACT §13 names no location events: a location is where stock is kept, and what changes for a catalog
// reader (a deactivation's new totals) comes as product.updated, noted by the work.
const write = { scope: 'products:write', event: false as const };

/** /locations: where a store keeps stock (CONTRACT §13). */
export async function registerLocationRoutes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;
  app.get(
    '/locations',
    { config: read, schema: { tags, summary: 'List locations', querystring: LocationListQuery, response: { 200: LocationListEnvelope } } },
    async (request) => {
      const { data, pagination } = await listLocations(db, request.auth.storeId, request.query);
      return okList(data, pagination);
    },
  );
  app.post(
    '/locations',
    {
      config: write,
      schema: { tags, summary: 'Create a location (at most 100 per store)', body: CreateLocationBody, response: { 201: LocationEnvelope } },
    },
    (request, reply) => sendWrite(ctx, request, reply, (trx, storeId) => createLocation(trx, storeId, request.body), 201),
  );
  app.get(
    '/locations/:id',
    { config: read, schema: { tags, summary: 'Get a location', params: IdParams, response: { 200: LocationEnvelope } } },
    async (request) => ok(await getLocation(db, request.auth.storeId, request.params.id)),
  );
  app.patch(
    '/locations/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Update a location (isDefault: true moves the default here; active: false takes its stock out of the totals)',
        params: IdParams,
        body: UpdateLocationBody,
        response: { 200: LocationEnvelope },
      },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => updateLocation(trx, storeId, request.params.id, request.body), {
        current: currentLocation(request.params.id),
      }),
  );
  app.delete(
    '/locations/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Delete a location (not the default; not while it holds stock: 409 LOCATION_NOT_EMPTY)',
        params: IdParams,
        response: { 200: DeletedEnvelope },
      },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => deleteLocation(trx, storeId, request.params.id), {
        current: currentLocation(request.params.id),
      }),
  );
}
