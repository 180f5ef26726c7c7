import type { RecordKindFeed } from '../events/index.js';
import type { App, AppContext } from '../http/index.js';
import { sendWrite } from '../http/index.js';
import type { EventType } from '../shared/index.js';
import { DeletedEnvelope, IdParams, ok, okList } from '../shared/index.js';
import type { ImageUploads } from './collections.checks.js';
import {
  CollectionEnvelope,
  CollectionListEnvelope,
  CollectionListQuery,
  CreateCollectionBody,
  UpdateCollectionBody,
} from './collections.schema.js';
import {
  createCollection,
  currentCollection,
  deleteCollection,
  getCollection,
  listCollections,
  updateCollection,
} from './collections.service.js';

const tags = ['Collections'];
const read = { scope: 'collections:read' };
const write = (event: EventType) => ({ scope: 'collections:write', event });

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

function registerWrites(app: App, ctx: AppContext, uploads: ImageUploads): void {
  app.post(
    '/collections',
    {
      config: write('collection.created'),
      schema: { tags, summary: 'Create a collection', body: CreateCollectionBody, response: { 201: CollectionEnvelope } },
    },
    (request, reply) => sendWrite(ctx, request, reply, (trx, storeId) => createCollection(trx, storeId, request.body, uploads), 201),
  );
  app.patch(
    '/collections/:id',
    {
      config: write('collection.updated'),
      schema: { tags, summary: 'Update a collection', params: IdParams, body: UpdateCollectionBody, response: { 200: CollectionEnvelope } },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => updateCollection(trx, storeId, request.params.id, request.body, uploads), {
        current: currentCollection(request.params.id),
      }),
  );
  app.delete(
    '/collections/:id',
    {
      config: write('collection.deleted'),
      schema: {
        tags,
        summary: 'Delete a collection (children are detached, memberships removed)',
        params: IdParams,
        response: { 200: DeletedEnvelope },
      },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => deleteCollection(trx, storeId, request.params.id), {
        current: currentCollection(request.params.id),
      }),
  );
}

/** Collections in the feed (src/app.ts passes it in): derived changes (a product's collections, a child's parent) read them. */
export const collectionRecordKind: RecordKindFeed = { load: getCollection };

export async function registerCollectionRoutes(app: App, ctx: AppContext): Promise<void> {
  registerReads(app, ctx);
  registerWrites(app, ctx, { store: ctx.media, maxBytes: ctx.config.mediaMaxBytes });
}
