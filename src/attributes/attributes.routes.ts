import type { RecordKindFeed } from '../events/index.js';
import type { App, AppContext } from '../http/index.js';
import { sendWrite } from '../http/index.js';
import type { EventType } from '../shared/index.js';
import { DeletedEnvelope, IdParams, ok, okList } from '../shared/index.js';
import {
  AttributeEnvelope,
  AttributeListEnvelope,
  AttributeListQuery,
  CreateAttributeBody,
  ExpandQuery,
  UpdateAttributeBody,
} from './attributes.schema.js';
import { createAttribute, currentAttribute, deleteAttribute, getAttribute, listAttributes, updateAttribute } from './attributes.service.js';

const tags = ['Attributes'];
const read = { scope: 'attributes:read' };
const write = (event: EventType) => ({ scope: 'attributes:write', event });

/** Attributes in the feed (src/app.ts passes it in): derived changes of other folders (an attribute set's delete) read them. */
export const attributeRecordKind: RecordKindFeed = { load: (trx, storeId, id) => getAttribute(trx, storeId, id) };

export async function registerAttributeRoutes(app: App, ctx: AppContext): Promise<void> {
  registerListRoutes(app, ctx);
  registerItemRoutes(app, ctx);
}

/** /attributes: list and create. */
function registerListRoutes(app: App, ctx: AppContext): void {
  const { db } = ctx;
  app.get(
    '/attributes',
    {
      config: read,
      schema: { tags, summary: 'List attributes', querystring: AttributeListQuery, response: { 200: AttributeListEnvelope } },
    },
    async (request) => {
      const { data, pagination } = await listAttributes(db, request.auth.storeId, request.query);
      return okList(data, pagination);
    },
  );
  app.post(
    '/attributes',
    {
      config: write('attribute.created'),
      schema: {
        tags,
        summary: 'Create an attribute (values upserted by name)',
        body: CreateAttributeBody,
        response: { 201: AttributeEnvelope },
      },
    },
    (request, reply) => sendWrite(ctx, request, reply, (trx, storeId) => createAttribute(trx, storeId, request.body), 201),
  );
}

/** /attributes/:id: read, update, delete. */
function registerItemRoutes(app: App, ctx: AppContext): void {
  const { db } = ctx;
  app.get(
    '/attributes/:id',
    {
      config: read,
      schema: { tags, summary: 'Get an attribute', params: IdParams, querystring: ExpandQuery, response: { 200: AttributeEnvelope } },
    },
    async (request) => ok(await getAttribute(db, request.auth.storeId, request.params.id, request.query.expand === 'values')),
  );
  app.patch(
    '/attributes/:id',
    {
      config: write('attribute.updated'),
      schema: { tags, summary: 'Update an attribute', params: IdParams, body: UpdateAttributeBody, response: { 200: AttributeEnvelope } },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => updateAttribute(trx, storeId, request.params.id, request.body), {
        current: currentAttribute(request.params.id),
      }),
  );
  app.delete(
    '/attributes/:id',
    {
      config: write('attribute.deleted'),
      schema: { tags, summary: 'Delete an attribute and its values', params: IdParams, response: { 200: DeletedEnvelope } },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => deleteAttribute(trx, storeId, request.params.id), {
        current: currentAttribute(request.params.id),
      }),
  );
}
