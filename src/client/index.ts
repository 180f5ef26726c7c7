/**
 * The typed Storefront client: `import { createStorefrontClient } from 'storefront/client'` (docs/client.md).
 * It imports nothing from the rest of src/ (dependency-cruiser enforces it): it is for the API's users.
 */
export {
  createStorefrontClient,
  type ListItem,
  type ListParams,
  type ListPath,
  type Page,
  type StorefrontClient,
  type StorefrontClientOptions,
  unwrap,
} from './client.js';
export { StorefrontError, type StorefrontErrorDetail } from './errors.js';
export { type EventBatch, type EventType, type FeedEvent, type ListenOptions, listenToEvents } from './events.js';
export type { components, operations, paths } from './schema.js';
export { createTransport, type RetryOptions, retryAfterMs, type TransportOptions } from './transport.js';
