/** What other folders may use of API keys: the CLI manages them, the bearer hook resolves them, app.ts notes their use. */
export { registerApiKeyRoutes } from './api-keys.routes.js';
export { apiKeyTag, createApiKey, findLiveApiKey, listApiKeys, revokeApiKey } from './api-keys.service.js';
export { type KeyUsage, LAST_USED_DEFAULTS, type LastUsedOptions, startKeyUsage } from './last-used.js';
