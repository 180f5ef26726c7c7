import type { SwaggerOptions } from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import { API_PREFIX } from '../shared/index.js';
import { finishDocument } from './openapi-components.js';
import { documentRoute } from './openapi-operations.js';

/** The groups of the document (the docs page shows one section per tag); every route names one of these. */
export const TAGS: { name: string; description: string }[] = [
  { name: 'Authentication', description: 'Exchange a store admin’s email and password for an access token.' },
  { name: 'API keys', description: 'Long-lived credentials with scopes, for unattended jobs; managed with an access token only.' },
  { name: 'Products', description: 'Products, their options and the variants generated from them (price, stock, SKU per variant).' },
  { name: 'Locations', description: 'The places a store keeps stock (warehouses, shops, a 3PL); one is the default.' },
  {
    name: 'Inventory levels',
    description: 'Stock per item and location: read, set with compare-and-set, adjust by deltas; all or nothing per request.',
  },
  {
    name: 'Price lists',
    description:
      'Prices per currency, for tagged customers, for a time: fixed per item or a percentage of the base price; GET /prices resolves them.',
  },
  { name: 'Collections', description: 'Manual and smart (rule-based) groups of products, nested in a hierarchy.' },
  { name: 'Attributes', description: 'Named attributes with their values (Size: S, M, L), used by product options.' },
  { name: 'Attribute sets', description: 'Named groups of attributes a product can follow.' },
  { name: 'Customers', description: 'The store’s customers.' },
  { name: 'Addresses', description: 'A customer’s addresses (at most one default).' },
  { name: 'Orders', description: 'Orders from custom checkouts or migrations, with their items, addresses and tracking.' },
  { name: 'Events', description: 'The feed of changes to the store’s records, in order, for keeping another system in step.' },
  { name: 'Webhooks', description: 'Push the event feed to your URLs, signed; every attempt is a delivery you can inspect and retry.' },
  { name: 'Imports', description: 'Bulk upserts from an NDJSON file, run as a job in batches that survive restarts.' },
  { name: 'Jobs', description: 'Long work running in the background (imports): progress counters, per-line errors, cancel.' },
  { name: 'Exports', description: 'Every record of a resource as NDJSON, streamed from one snapshot in constant memory.' },
  { name: 'Media', description: 'Uploaded product images and size charts, served without credentials (outside /api/v1).' },
];

const DESCRIPTION = [
  'Catalog, customers and orders of many stores, each sealed off from the others.',
  '',
  'Every success is `{"success": true, "data": …}` (lists add `pagination`); every error is',
  '`{"success": false, "error": {"code", "message", "details"}}` with one of the codes of the `Error` schema.',
  'Authenticate with `Authorization: Bearer <token>`: an access token from `POST /auth`, or an API key',
  '(`sfk_…`) whose scopes each operation names. Writes take `Idempotency-Key` (safe retries); one-record',
  'responses carry an `ETag` for `If-None-Match` and `If-Match`. A path that exists with other methods answers',
  '405 `METHOD_NOT_ALLOWED` with `Allow`. Unknown input is refused: a body property (at any depth) or query',
  'parameter an operation does not take is a 400 `VALIDATION_ERROR` naming it, unless the request sends',
  '`Prefer: handling=lenient`; the read-only properties of a record (`id`, `createdAt`, …) are ignored, so a',
  'record read with GET can be sent back in a PATCH.',
].join('\n');

export function openApiOptions(): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Storefront',
        version: '1.0.0',
        description: DESCRIPTION,
        license: { name: 'ISC', identifier: 'ISC' },
      },
      // Relative: the document is right wherever the server is reached (it is served under /api/v1).
      servers: [{ url: API_PREFIX, description: 'this server' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'an access token from POST /auth, or an API key (sfk_…)' },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: ({ schema, url, route }) => documentRoute({ schema, url, route: route as RouteOptions }) as never,
    transformObject: (documents) => finishDocument(documents as never) as never,
  };
}
