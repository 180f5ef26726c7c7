import type { App, AppContext } from '../http/index.js';
import { sendWrite } from '../http/index.js';
import { DeletedEnvelope, IdParams, ok } from '../shared/index.js';
import { ApiKeyEnvelope, ApiKeyListEnvelope, CreateApiKeyBody } from './api-keys.schema.js';
import { apiKeyTag, createApiKey, listApiKeys, revokeApiKey } from './api-keys.service.js';

const tags = ['API keys'];

export async function registerApiKeyRoutes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;
  app.get(
    '/api-keys',
    { config: { tokenOnly: true }, schema: { tags, summary: 'List API keys', response: { 200: ApiKeyListEnvelope } } },
    async (request) => ok(await listApiKeys(db, request.auth.storeId)),
  );

  app.post(
    '/api-keys',
    {
      config: { tokenOnly: true, event: false },
      schema: { tags, summary: 'Create an API key (shown once)', body: CreateApiKeyBody, response: { 201: ApiKeyEnvelope } },
    },
    (request, reply) =>
      sendWrite(ctx, request, reply, (trx, storeId) => createApiKey(trx, storeId, request.body), {
        status: 201,
        // the key is shown once, ever: a retry's replay answers with the same key record and `key: null`
        recordAs: (created) => ({ ...created, key: null }),
      }),
  );

  app.delete(
    '/api-keys/:id',
    {
      config: { tokenOnly: true, event: false },
      schema: { tags, summary: 'Revoke an API key', params: IdParams, response: { 200: DeletedEnvelope } },
    },
    (request, reply) =>
      ctx.credentials.revoking(apiKeyTag(request.auth.storeId, request.params.id), () =>
        sendWrite(ctx, request, reply, (trx, storeId) => revokeApiKey(trx, storeId, request.params.id)),
      ),
  );
}
