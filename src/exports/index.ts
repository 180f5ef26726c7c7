/** GET /exports/{resource}: a store's records as NDJSON, streamed from one snapshot. Imported by app.ts. */
export { registerExportRoutes } from './exports.routes.js';
