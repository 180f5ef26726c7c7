import type { RouteOptions } from 'fastify';
import { answerInvalidRetry, claimKey, startKeyPurge } from '../idempotency/index.js';
import { ErrorEnvelope } from '../shared/index.js';
import type { App, AppContext } from './context.js';
import { answerNotModified, carriesOneRecord, setEtag } from './etag.js';

// PUT: a price list's fixed prices (CONTRACT §14), the API's one PUT, takes an Idempotency-Key as every write.
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A write of the API that takes an Idempotency-Key, and so goes through the write door (`sendWrite`:
 * safe-writes.coverage.test.ts): its 2xx carry Storefront-Consistency with replicas (the OpenAPI document
 * declares it by this rule).
 */
export function isKeyedWrite(route: Pick<RouteOptions, 'method' | 'config'>): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  // A public write (POST /auth) has no store to keep its keys in.
  return methods.some((method) => WRITE_METHODS.has(method)) && !route.config?.public;
}

type HookName = 'preValidation' | 'preSerialization' | 'onSend';

function appendHook(route: RouteOptions, name: HookName, hook: unknown): void {
  const existing = (route[name] ?? []) as unknown;
  route[name] = [...(Array.isArray(existing) ? existing : [existing]), hook] as never;
}

function isGet(route: RouteOptions): boolean {
  return (Array.isArray(route.method) ? route.method : [route.method]).includes('GET');
}

/**
 * Request headers read by these mechanisms, in the route's schema so the OpenAPI document lists them.
 * Unconstrained strings: the mechanisms check them and answer in the contract's words.
 */
function documentHeader(route: RouteOptions, name: string, description: string): void {
  if (!route.schema || route.schema.hide) return;
  const headers = (route.schema.headers ?? { type: 'object', properties: {} }) as { properties?: object };
  route.schema.headers = { ...headers, properties: { ...headers.properties, [name]: { type: 'string', description } } };
}

type ResponseDoc = { description?: string; headers?: Record<string, object> };
type Responses = Record<string, ResponseDoc>;

const header = (description: string) => ({ type: 'string', description });
const ETAG = { ETag: header("the record's version: send it in If-Match to write only over it, in If-None-Match to read only a change") };

/**
 * Documents a response of the route in the OpenAPI document: a status (an error envelope unless `schema`
 * says otherwise) with its meaning and headers; a status the route already declares gets the meaning
 * appended and the headers added. New objects each time: a schema shared by several routes stays as it is.
 */
function documentResponse(
  route: RouteOptions,
  status: string,
  description: string,
  headers: Record<string, object> = {},
  schema: object = ErrorEnvelope,
) {
  if (!route.schema || route.schema.hide) return;
  const responses = { ...(route.schema.response as Responses) };
  const existing = responses[status];
  responses[status] = existing
    ? {
        ...existing,
        description: [existing.description, description].filter(Boolean).join('; '),
        headers: { ...existing.headers, ...headers },
      }
    : { ...schema, description, headers };
  route.schema.response = responses;
}

/** Headers of a route's success responses (each 2xx it declares). */
function documentSuccessHeaders(route: RouteOptions, headers: Record<string, object>): void {
  const declared = Object.keys((route.schema?.response ?? {}) as Responses).filter((status) => /^2\d\d$/.test(status));
  for (const status of declared) documentResponse(route, status, '', headers);
}

/** A write claims its key before validation; the key's outcome wins over a body that now fails validation. */
function addKeys(route: RouteOptions, invalidRetry: ReturnType<typeof answerInvalidRetry>): void {
  // Declared, never defaulted: a new write route that forgets its event fails at start, not in a consumer's feed.
  if (route.config?.event === undefined) {
    throw new Error(
      `${String(route.method)} ${route.url}: declare config.event (its event type, or false for a write that changes no record)`,
    );
  }
  appendHook(route, 'preValidation', claimKey);
  documentHeader(route, 'idempotency-key', 'Safe retries: 1-255 printable ASCII characters, kept per store (docs/safe-writes.md)');
  documentSuccessHeaders(route, {
    'Idempotent-Replayed': header('"true" on the recorded answer to a retry with the same Idempotency-Key'),
  });
  documentResponse(route, '409', 'IDEMPOTENCY_KEY_IN_USE: a request with this Idempotency-Key is still running', {
    'Retry-After': header('seconds to wait before retrying'),
  });
  documentResponse(route, '422', 'IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used for a different request');
  // A route's own error handler would have to chain to this one; none needs one, so none may have one.
  if (route.errorHandler) throw new Error(`${String(route.method)} ${route.url}: write routes use the app's error handler`);
  // What this one rethrows goes on to the app's error handler (Fastify chains a route's to its parent's).
  route.errorHandler = invalidRetry;
}

/**
 * A record route carries the record's ETag; its GET answers If-None-Match with 304. Its PATCH and DELETE
 * (a PATCH answering with the record; a DELETE at a record route's URL) take If-Match, which sendWrite
 * checks with the route's `current` loader (src/http/safe-writes.coverage.test.ts holds the two together).
 */
function addVersions(route: RouteOptions, recordUrls: Set<string>): void {
  const isRecord = route.config?.etag !== false && carriesOneRecord(route);
  if (isRecord) recordUrls.add(route.url);
  if (takesIfMatch(route, isRecord, recordUrls)) {
    documentHeader(route, 'if-match', 'the ETag of the version you read: the write happens only if it is still current, else 412');
    documentResponse(route, '412', 'PRECONDITION_FAILED: the record changed since the version named in If-Match; nothing changed', {
      ETag: header('the current version'),
    });
  }
  if (!isRecord) return;
  route.config = { ...route.config, etag: true };
  appendHook(route, 'preSerialization', setEtag);
  documentSuccessHeaders(route, ETAG);
  if (!isGet(route)) return;
  appendHook(route, 'onSend', answerNotModified);
  documentHeader(route, 'if-none-match', 'ETag(s) of the version you have: 304 without a body if it is still current');
  documentResponse(route, '304', 'Not Modified: the version named in If-None-Match is current (no body)', ETAG, { type: 'null' });
}

function takesIfMatch(route: RouteOptions, isRecord: boolean, recordUrls: Set<string>): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return (methods.includes('PATCH') && isRecord) || (methods.includes('DELETE') && recordUrls.has(route.url));
}

/**
 * Safe retries and versions (CONTRACT §9.1, §9.2) for every route registered after this call in `api`:
 * each write claims its Idempotency-Key before validation (sendWrite records the outcome); each route
 * whose response schema is one record gets ETags (decided from the schema, so no route repeats it; a
 * route opts out with `config: { etag: false }`). The background purge of expired keys runs while the
 * app is open. If-Match is checked in sendWrite, given the route's `current` loader; each write declares
 * its event (`config.event`), appended by sendWrite.
 */
export function registerSafeWrites(api: App, ctx: AppContext): void {
  const invalidRetry = answerInvalidRetry(ctx.db);
  const recordUrls = new Set<string>();
  api.addHook('onRoute', (route) => {
    if (isKeyedWrite(route)) addKeys(route, invalidRetry);
    addVersions(route, recordUrls);
  });
  const stopKeyPurge = startKeyPurge(ctx.db, ctx.config.idempotencyTtl, api.log);
  api.addHook('onClose', async () => stopKeyPurge());
}
