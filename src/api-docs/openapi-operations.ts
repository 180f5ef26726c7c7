import type { RouteOptions } from 'fastify';
import { API_PREFIX, ErrorEnvelope } from '../shared/index.js';
import { consistencyResponseHeaders, withConsistencyRequestHeader } from './openapi-consistency.js';

/**
 * How each route appears in the OpenAPI document, derived from what the route already declares (its
 * method, URL, config and schemas), so a new route is documented like the others without repeating
 * anything. Works on a copy: the schemas that validate and serialize are never touched.
 */

const VERBS: Record<string, string> = { GET: 'get', POST: 'create', PUT: 'replace', PATCH: 'update', DELETE: 'delete' };

/** `addresses` -> `address`, `deliveries` -> `delivery`, `api-keys` -> `api-key`; `media`, `status` stay. */
export function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ss|x|ch|sh|us)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

const pascal = (word: string) =>
  word
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');

/**
 * The operationId of a route: verb + its resources, singular except a listed collection.
 * GET /products -> listProducts, POST /products -> createProduct, GET|PATCH|DELETE /products/{id} ->
 * getProduct|updateProduct|deleteProduct, GET /products/{id}/variants -> listProductVariants,
 * POST /webhooks/{id}/test -> testWebhook (a last segment that is not a plural noun is an action).
 * `schema.operationId` wins where a route needs a better name.
 */
export function operationIdOf(method: string, url: string): string {
  const segments = url.replace(API_PREFIX, '').split('/').filter(Boolean);
  const literals = segments.filter((segment) => !segment.startsWith(':'));
  const last = segments.at(-1) ?? '';
  const resources = (words: string[]) => words.map((word) => pascal(singular(word))).join('');
  if (last.startsWith(':')) return `${VERBS[method] ?? method.toLowerCase()}${resources(literals)}`;
  if (singular(last) === last) {
    const verb = pascal(last);
    return `${verb[0].toLowerCase()}${verb.slice(1)}${resources(literals.slice(0, -1))}`;
  }
  if (method === 'GET') return `list${resources(literals.slice(0, -1))}${pascal(last)}`;
  return `${VERBS[method] ?? method.toLowerCase()}${resources(literals)}`;
}

type Config = {
  public?: boolean;
  scope?: string | ((...args: never[]) => unknown);
  scopeNote?: string;
  tokenOnly?: boolean;
  rateLimit?: unknown;
};

/** Who may call the route, from its config (the same fields the authentication hook reads). */
export function accessOf(config: Config): string {
  if (config.public) return 'No credentials needed.';
  if (config.tokenOnly) return 'Access tokens only (from POST /auth); API keys are refused with 403.';
  if (typeof config.scope === 'function') {
    return `Scope: ${config.scopeNote ?? 'depends on the record'}. An API key needs it (403 without); an access token has every scope.`;
  }
  return `Scope \`${config.scope}\`: an API key needs it (403 without); an access token has every scope.`;
}

const text = (description: string) => ({ type: 'string', description });
const integer = (description: string) => ({ type: 'integer', description });

const REQUEST_ID = { 'X-Request-Id': text('the id of this request (yours, if you sent a sane X-Request-Id): quote it in reports') };
// The 202s that start a job say where to follow it (a webhook's test or retry is just queued).
const JOB_STARTERS = new Set(['/api/v1/imports']);
const ACCEPTED = { Location: text('where to follow the job: /api/v1/jobs/{id}') };
const RATE_LIMIT = {
  'RateLimit-Limit': integer('requests allowed in the current window, per credential (when rate limiting is on)'),
  'RateLimit-Remaining': integer('requests left in the current window'),
  'RateLimit-Reset': integer('seconds until the window resets'),
};
const RETRY_AFTER = { 'Retry-After': integer('seconds to wait before retrying') };
const PREFERENCE_APPLIED = {
  'Preference-Applied': text('`handling=strict` or `handling=lenient` when the request stated that preference in `Prefer`'),
};
/** The request header every API operation reads (src/http/input-guard.ts). */
const PREFER = {
  type: 'string',
  description:
    '`handling=lenient` (RFC 7240): unknown body properties and query parameters are ignored instead of refused; ' +
    '`handling=strict` is the default, said out loud. Either is confirmed by `Preference-Applied`.',
  examples: ['handling=lenient'],
};
/** What every operation that takes input says about names it does not know (docs/api.md, "Unknown input is refused"). */
const unknownInput = (withBody: boolean) =>
  `Unknown input is refused: a ${withBody ? 'body property (at any depth) or ' : ''}query parameter this operation does not ` +
  'take is a 400 VALIDATION_ERROR naming it, unless the request sends `Prefer: handling=lenient`.';

/** What each error status means in this API; the codes are the error.code values it carries. */
export const ERROR_STATUSES: Record<string, { description: string; codes: string[]; headers?: Record<string, object> }> = {
  400: {
    description: 'VALIDATION_ERROR (a detail per wrong field), DUPLICATE_VALUE (a unique value is taken) or INVALID_JSON',
    codes: ['VALIDATION_ERROR', 'DUPLICATE_VALUE', 'INVALID_JSON'],
  },
  401: {
    description: 'UNAUTHORIZED: missing, malformed, expired or revoked credential',
    codes: ['UNAUTHORIZED'],
    headers: { 'WWW-Authenticate': text('`Bearer`') },
  },
  403: { description: 'FORBIDDEN: the credential may not call this operation', codes: ['FORBIDDEN'] },
  404: { description: 'NOT_FOUND: no such record in this store (or an id that is not an id)', codes: ['NOT_FOUND'] },
  409: {
    description: 'Conflict',
    codes: [
      'IDEMPOTENCY_KEY_IN_USE',
      'INSUFFICIENT_STOCK',
      'REPLAY_IN_PROGRESS',
      'INVENTORY_CHANGED',
      'MULTI_LOCATION_STOCK',
      'LOCATION_NOT_EMPTY',
      'DUPLICATE_VALUE',
    ],
  },
  412: { description: 'PRECONDITION_FAILED', codes: ['PRECONDITION_FAILED'] },
  413: { description: 'PAYLOAD_TOO_LARGE: the body is over the limit', codes: ['PAYLOAD_TOO_LARGE'] },
  415: { description: 'UNSUPPORTED_MEDIA_TYPE: the body is not application/json', codes: ['UNSUPPORTED_MEDIA_TYPE'] },
  422: { description: 'IDEMPOTENCY_KEY_REUSED', codes: ['IDEMPOTENCY_KEY_REUSED'] },
  429: { description: 'RATE_LIMITED: too many requests', codes: ['RATE_LIMITED'], headers: RETRY_AFTER },
  500: { description: 'INTERNAL_ERROR: a bug, logged with the request id', codes: ['INTERNAL_ERROR'] },
  503: {
    description: 'SERVICE_UNAVAILABLE: the database is unreachable or too contended; nothing changed, retry',
    codes: ['SERVICE_UNAVAILABLE'],
    headers: RETRY_AFTER,
  },
};

type Schema = Record<string, unknown>;
type ResponseSchema = Schema & { description?: string; headers?: Record<string, object> };

function methodOf(route: Pick<RouteOptions, 'method'>): string {
  return String(Array.isArray(route.method) ? route.method[0] : route.method);
}

/** The error statuses a route can answer, from what it declares (credentials, parameters, a body). */
function errorStatusesOf(route: RouteOptions, schema: Schema, outsideApi: boolean): string[] {
  const config = (route.config ?? {}) as Config;
  const declared = Object.keys((schema.response ?? {}) as object).filter((status) => /^[45]\d\d$/.test(status));
  const statuses = new Set([
    ...declared,
    ...(outsideApi ? [] : ['400', '429', '500', '503']),
    ...(config.public ? [] : ['401']),
    ...(config.scope || config.tokenOnly ? ['403'] : []),
    ...(route.url.includes(':') ? ['404'] : []),
    ...(schema.body ? ['413', '415'] : []),
  ]);
  return [...statuses].sort();
}

/** A 2xx's meaning when the route gives none. */
function successDescription(method: string, status: string, list: boolean): string {
  if (status === '201') return 'Created: the new record';
  if (status === '202') return 'Accepted: the work is queued';
  if (method === 'GET') return list ? 'One page of the list, with its pagination' : 'The record';
  if (method === 'DELETE') return 'Deleted: the id of the removed record';
  return 'Done: the record as it is now';
}

/**
 * A response's meaning goes where @fastify/swagger reads it and leaves it out of the schema, so the
 * schema stays the shape alone (one component for every response of that shape).
 */
function described(schema: ResponseSchema, description: string, headers: Record<string, object>): ResponseSchema {
  const { description: _, headers: __, ...shape } = schema;
  return { ...shape, 'x-response-description': description, headers };
}

function documentResponses(route: RouteOptions, schema: Schema, outsideApi: boolean): Record<string, ResponseSchema> {
  const config = (route.config ?? {}) as Config;
  const everyResponse = {
    ...REQUEST_ID,
    ...(config.rateLimit === false ? {} : RATE_LIMIT),
    ...(outsideApi ? {} : PREFERENCE_APPLIED),
  };
  const declared = (schema.response ?? {}) as Record<string, ResponseSchema>;
  const responses: Record<string, ResponseSchema> = {};
  for (const [status, response] of Object.entries(declared)) {
    if (!/^[1-3]\d\d$/.test(status)) continue;
    const list = Boolean((response.properties as Schema | undefined)?.pagination);
    const description = response.description || successDescription(methodOf(route), status, list);
    const accepted = status === '202' && JOB_STARTERS.has(route.url) ? ACCEPTED : {};
    const written = /^2/.test(status) ? consistencyResponseHeaders(route, outsideApi) : {};
    responses[status] = described(response, description, { ...response.headers, ...accepted, ...written, ...everyResponse });
  }
  for (const status of errorStatusesOf(route, schema, outsideApi)) {
    const known = ERROR_STATUSES[status];
    const own = declared[status];
    const headers = { ...known.headers, ...own?.headers, ...everyResponse };
    responses[status] = described(structuredCopy(ErrorEnvelope), own?.description || known.description, headers);
  }
  return responses;
}

/** A plain-JSON copy (no TypeBox symbols), safe to change. */
function structuredCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Output shapes are open: a client must accept properties added later. */
function withoutClosedObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutClosedObjects);
  if (!schema || typeof schema !== 'object') return schema;
  const copy: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && value === false) continue;
    copy[key] = withoutClosedObjects(value);
  }
  return copy;
}

/** A query parameter with a default is optional: the default applies when it is left out. */
function withOptionalDefaults(query: Schema): Schema {
  const properties = (query.properties ?? {}) as Record<string, Schema>;
  const required = ((query.required ?? []) as string[]).filter((name) => !('default' in (properties[name] ?? {})));
  return { ...query, required };
}

/** Every `title` in a schema. */
function titlesIn(schema: unknown, titles = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) titlesIn(item, titles);
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'title' && typeof value === 'string') titles.add(value);
      else titlesIn(value, titles);
    }
  }
  return titles;
}

/**
 * A request body as the document shows it: closed (unknown names are refused). A named shape the response
 * shows too (an order's cartItems) is open there, so its closed input form takes the name `<title>Input`.
 */
function closedBody(body: unknown, sharedTitles: Set<string>): unknown {
  if (Array.isArray(body)) return body.map((item) => closedBody(item, sharedTitles));
  if (!body || typeof body !== 'object') return body;
  const copy: Schema = {};
  for (const [key, value] of Object.entries(body)) copy[key] = closedBody(value, sharedTitles);
  // every object the write describes by its properties is closed, whichever helper built it
  if (copy.properties && copy.additionalProperties === undefined && !copy.patternProperties) copy.additionalProperties = false;
  if (typeof copy.title === 'string' && sharedTitles.has(copy.title) && copy.additionalProperties === false)
    copy.title = `${copy.title}Input`;
  return copy;
}

/** The names of a response record a body may carry back, ignored: the record's properties the write lacks. */
function readOnlyNames(body: Schema, response: Schema | undefined): string[] {
  const success = Object.entries((response ?? {}) as Record<string, Schema>).find(([status]) => /^2\d\d$/.test(status))?.[1];
  const record = ((success?.properties as Schema | undefined)?.data as Schema | undefined)?.properties as Schema | undefined;
  if (!body.properties) return [];
  const writable = body.properties as Schema;
  return Object.keys(record ?? {}).filter((name) => !Object.hasOwn(writable, name));
}

/** What the operation says about input it does not know, and the Prefer header that changes it. */
function documentUnknownInput(copy: Schema): void {
  const headers = (copy.headers ?? { type: 'object', properties: {} }) as Schema;
  copy.headers = { ...headers, properties: { ...(headers.properties as Schema), prefer: PREFER } };
  const readOnly = copy.body ? readOnlyNames(copy.body as Schema, copy.response as Schema) : [];
  const ignored = readOnly.length
    ? ` The read-only properties of the record it answers with (${readOnly.map((name) => `\`${name}\``).join(', ')}, and their ` +
      'nested read-only properties) are accepted and ignored, so a record read with GET can be sent back as it is.'
    : '';
  copy.description = [copy.description, `${unknownInput(Boolean(copy.body))}${ignored}`].filter(Boolean).join('\n\n');
}

/**
 * The transform of @fastify/swagger: one route's schema as the document shows it. operationId,
 * description (with who may call it and how unknown input is handled), the Prefer header, Storefront-Consistency
 * (openapi-consistency.ts), every error
 * status with the Error schema, response headers, list parameters with defaults as optional, request
 * bodies closed (`additionalProperties: false`: unknown names are refused).
 */
export function documentRoute({ schema, url, route }: { schema: unknown; url: string; route: RouteOptions }): { schema?: Schema } {
  if (!schema || (schema as Schema).hide) return {};
  const source = schema as Schema;
  const copy = structuredCopy(source);
  const config = (route.config ?? {}) as Config;
  const outsideApi = !url.startsWith(API_PREFIX);
  copy.operationId = source.operationId ?? operationIdOf(methodOf(route), url);
  copy.description = [source.description, accessOf(config)].filter(Boolean).join('\n\n');
  if (config.public) copy.security = [];
  if (outsideApi) copy.servers = [{ url: '/', description: 'the server root (this path is outside /api/v1)' }];
  if (copy.querystring) copy.querystring = withOptionalDefaults(copy.querystring as Schema);
  if (!outsideApi) {
    documentUnknownInput(copy);
    copy.headers = withConsistencyRequestHeader(copy.headers as Schema, route);
  }
  if (copy.body) copy.body = closedBody(copy.body, titlesIn(copy.response));
  // Output shapes reuse input ones (an order's cartItems): one open shape in the document for both.
  copy.response = withoutClosedObjects(documentResponses(route, copy, outsideApi));
  return { schema: copy };
}
