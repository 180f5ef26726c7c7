import type { App, AppContext } from '../http/context.js';
import { DeletedEnvelope, IdParams } from '../shared/common.schema.js';
import { ok } from '../shared/envelope.js';
import { ApiKeyEnvelope, ApiKeyListEnvelope, CreateApiKeyBody } from './api-keys.schema.js';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service.js';

const tags = ['API keys'];

export async function registerApiKeyRoutes(app: App, { db }: AppContext): Promise<void> {
  app.get(
    '/api-keys',
    { config: { tokenOnly: true }, schema: { tags, summary: 'List API keys', response: { 200: ApiKeyListEnvelope } } },
    async (request) => ok(await listApiKeys(db, request.auth.storeId)),
  );

  app.post(
    '/api-keys',
    {
      config: { tokenOnly: true },
      schema: { tags, summary: 'Create an API key (shown once)', body: CreateApiKeyBody, response: { 201: ApiKeyEnvelope } },
    },
    async (request, reply) => reply.status(201).send(ok(await createApiKey(db, request.auth.storeId, request.body))),
  );

  app.delete(
    '/api-keys/:id',
    { config: { tokenOnly: true }, schema: { tags, summary: 'Revoke an API key', params: IdParams, response: { 200: DeletedEnvelope } } },
    async (request) => ok(await revokeApiKey(db, request.auth.storeId, request.params.id)),
  );
}
