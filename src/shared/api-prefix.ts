/**
 * Where the API's routes are mounted: app.ts registers them under it, the input guard tells API requests
 * from the console's and /docs' by it, and the OpenAPI document names it as the server's URL.
 */
export const API_PREFIX = '/api/v1';
