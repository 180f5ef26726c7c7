/** What other folders may use of API keys: the CLI manages them, the bearer hook resolves them. */
export { registerApiKeyRoutes } from './api-keys.routes.js';
export { apiKeyTag, createApiKey, findLiveApiKey, listApiKeys, revokeApiKey } from './api-keys.service.js';
