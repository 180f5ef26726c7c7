import type { App, AppContext } from '../http/index.js';
import { sendWrite } from '../http/index.js';
import type { EventType } from '../shared/index.js';
import { DeletedEnvelope, IdParams, ok, okList } from '../shared/index.js';
import {
  AttributeSetEnvelope,
  AttributeSetListEnvelope,
  AttributeSetListQuery,
  CreateAttributeSetBody,
  UpdateAttributeSetBody,
} from './attribute-sets.schema.js';
import {
  createAttributeSet,
  currentAttributeSet,
  deleteAttributeSet,
  getAttributeSet,
  listAttributeSets,
  updateAttributeSet,
} from './attribute-sets.service.js';

const tags = ['Attribute sets'];
const read = { scope: 'attributes:read' };
const write = (event: EventType) => ({ scope: 'attributes:write', event });

export async function registerAttributeSetRoutes(app: App, ctx: AppContext): Promise<void> {
  registerListRoutes(app, ctx);
  registerItemRoutes(app, ctx);
}

/** /attribute-sets: list and create. */
function registerListRoutes(app: App, ctx: AppContext): void {
  const { db } = ctx;
  app.get(
    '/attribute-sets',
    {
      config: read,
      schema: { tags, summary: 'List attribute sets', querystring: AttributeSetListQuery, response: { 200: AttributeSetListEnvelope } },
    },
    async (request) => {
      const { data, pagination } = await listAttributeSets(db, request.auth.storeId, request.query);
      return okList(data, pagination);
    },
  );
  app.post(
    '/attribute-sets',
    {
      config: write('attributeSet.created'),
      schema: { tags, summary: 'Create an attribute set', body: CreateAttributeSetBody, response: { 201: AttributeSetEnvelope } },
    },
    (request, reply) => sendWrite(ctx, request, reply, (trx, storeId) => createAttributeSet(trx, storeId, request.body), 201),
  );
}

/** /attribute-sets/:id: read, update, delete. */
function registerItemRoutes(app: App, ctx: AppContext): void {
  const { db } = ctx;
  app.get(
    '/attribute-sets/:id',
    { config: read, schema: { tags, summary: 'Get an attribute set', params: IdParams, response: { 200: AttributeSetEnvelope } } },
    async (request) => ok(await getAttributeSet(db, request.auth.storeId, request.params.id)),
  );
  app.patch(
    '/attribute-sets/:id',
    {
      config: write('attributeSet.updated'),
      schema: {
        tags,
        summary: 'Update an attribute set',
        params: IdParams,
        body: UpdateAttributeSetBody,
        response: { 200: AttributeSetEnvelope },
      },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => updateAttributeSet(trx, storeId, request.params.id, request.body), {
        current: currentAttributeSet(request.params.id),
      }),
  );
  app.delete(
    '/attribute-sets/:id',
    {
      config: write('attributeSet.deleted'),
      schema: {
        tags,
        summary: 'Delete an attribute set (its attributes keep existing)',
        params: IdParams,
        response: { 200: DeletedEnvelope },
      },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => deleteAttributeSet(trx, storeId, request.params.id), {
        current: currentAttributeSet(request.params.id),
      }),
  );
}
