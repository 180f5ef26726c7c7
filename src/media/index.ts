/** The public surface of media: what other folders may use. Everything else in src/media is internal. */
export { createMediaStore, mediaBackendOf } from './backend.js';
export { resolveMedia, storeMedia } from './ingest.js';
export { DOCUMENT_OR_IMAGE_TYPES, IMAGE_TYPES } from './media.js';
export { registerMediaRoutes } from './media.routes.js';
export { type MediaMigration, migrateMediaDir } from './migrate.js';
