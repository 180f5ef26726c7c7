import { ERROR_CODES } from '../errors.js';
import { hoistConsistencyParameter } from './openapi-consistency.js';
import { COMPONENT_EXAMPLES } from './openapi-examples.js';
import { ERROR_STATUSES } from './openapi-operations.js';

/**
 * The whole document after @fastify/swagger has built it: every schema that names itself (a `title`,
 * given where the schema is declared) becomes one `#/components/schemas/<title>` referenced everywhere
 * it appears; request bodies and success envelopes without a title are named after their operation
 * (createProduct's body: ProductCreate; an envelope of a Product: ProductResponse, a page: ProductList).
 * Two different shapes under one name fail the document (and the tests), never silently merge.
 */

type Node = Record<string, unknown>;
const REF = '#/components/schemas/';

const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSON with sorted keys: equal shapes, equal text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (!isObject(value)) return JSON.stringify(value);
  return `{${Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
    .join(',')}}`;
}

class Components {
  constructor(readonly schemas: Record<string, Node>) {}

  /** `schema` under `name`, or the name it already has; a different shape under a taken name is an error. */
  ref(name: string, schema: Node): Node {
    const existing = this.schemas[name];
    if (existing && canonical(existing) !== canonical(schema)) {
      throw new Error(
        `OpenAPI: two different schemas are named ${name}; give one of them another title: ${canonical(existing)} vs ${canonical(schema)}`,
      );
    }
    this.schemas[name] = schema;
    return { $ref: `${REF}${name}` };
  }

  /** The name a shape already has, if any. */
  nameOf(schema: Node): string | undefined {
    const text = canonical(schema);
    return Object.keys(this.schemas).find((name) => canonical(this.schemas[name]) === text);
  }
}

const isSchema = (node: Node) => typeof node.title === 'string' && ('type' in node || 'properties' in node);

/** Depth first, so a named schema's own named parts are references before it is compared. */
function hoistTitled(node: unknown, components: Components): unknown {
  if (Array.isArray(node)) return node.map((item) => hoistTitled(item, components));
  if (!isObject(node)) return node;
  const copy: Node = {};
  for (const [key, value] of Object.entries(node)) copy[key] = hoistTitled(value, components);
  if (!isSchema(copy)) return copy;
  const { title, ...schema } = copy;
  // Nullable(X): a reference to X or null.
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const types = schema.type.filter((type) => type !== 'null');
    const ref = components.ref(title as string, { ...schema, type: types.length === 1 ? types[0] : types });
    return { anyOf: [ref, { type: 'null' }] };
  }
  return components.ref(title as string, schema);
}

type Operation = {
  operationId: string;
  requestBody?: { content: Record<string, { schema: Node }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: Node; example?: unknown }> }>;
};

function operationsOf(document: Node): Operation[] {
  return Object.values(document.paths as Record<string, Record<string, Operation>>).flatMap((item) => Object.values(item));
}

/** createProduct -> ProductCreate, updateProductVariant -> ProductVariantUpdate. */
function bodyName(operationId: string): string {
  const [, verb, rest] = /^([a-z]+)(.*)$/.exec(operationId) ?? ['', operationId, ''];
  return `${rest}${verb[0].toUpperCase()}${verb.slice(1)}`;
}

const refName = (schema: unknown) => (isObject(schema) && typeof schema.$ref === 'string' ? schema.$ref.slice(REF.length) : null);

/** `{success, data: X}` -> XResponse, `{success, data: X[]}` -> XArray, with `pagination` -> XList. */
function envelopeName(schema: Node): string | null {
  const properties = (schema.properties ?? {}) as Node;
  if (!isObject(properties.data)) return null;
  const single = refName(properties.data);
  if (single) return `${single}Response`;
  const item = refName(properties.data.items);
  if (!item) return null;
  return properties.pagination ? `${item}List` : `${item}Array`;
}

function nameBodiesAndEnvelopes(document: Node, components: Components): void {
  for (const operation of operationsOf(document)) {
    for (const media of Object.values(operation.requestBody?.content ?? {})) {
      if (refName(media.schema) || !isObject(media.schema) || media.schema.type !== 'object') continue;
      media.schema = components.ref(components.nameOf(media.schema) ?? bodyName(operation.operationId), media.schema);
    }
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!/^2/.test(status)) continue;
      for (const media of Object.values(response.content ?? {})) {
        const name = !refName(media.schema) && isObject(media.schema) ? envelopeName(media.schema) : null;
        if (name) media.schema = components.ref(components.nameOf(media.schema) ?? name, media.schema);
      }
    }
  }
}

const ERROR_MESSAGES: Record<string, string> = {
  VALIDATION_ERROR: 'Request validation failed',
  UNAUTHORIZED: 'Missing or invalid bearer credential',
  FORBIDDEN: 'This credential lacks the scope products:write',
  NOT_FOUND: 'Product not found',
  IDEMPOTENCY_KEY_IN_USE: 'A request with this Idempotency-Key is still being processed; retry shortly',
  INSUFFICIENT_STOCK: 'Not enough stock for every item: nothing was ordered and no stock changed',
  INVENTORY_CHANGED: 'An inventory level is no longer at its compareAvailable: nothing changed',
  MULTI_LOCATION_STOCK: 'The item has stock at more than one location: change it per location with /inventory-levels',
  LOCATION_NOT_EMPTY: 'The location holds stock: move or set its levels to 0 first',
  REPLAY_IN_PROGRESS: 'This webhook has a replay running: stop it (DELETE /webhooks/{id}/replay) or wait for its end',
  PRECONDITION_FAILED: 'The record changed since the version in If-Match; nothing was changed',
  PAYLOAD_TOO_LARGE: 'The body is larger than the limit',
  UNSUPPORTED_MEDIA_TYPE: 'The body must be application/json',
  IDEMPOTENCY_KEY_REUSED: 'This Idempotency-Key was already used for a different request; use a new key',
  RATE_LIMITED: 'Too many requests',
  INTERNAL_ERROR: 'Internal server error',
  SERVICE_UNAVAILABLE: 'The database is unavailable, retry shortly',
};

/** The example of an error response: its status's first code (a detail for a validation error). */
export function errorExample(status: string) {
  const code = ERROR_STATUSES[status]?.codes[0] ?? 'INTERNAL_ERROR';
  const details = code === 'VALIDATION_ERROR' ? [{ field: 'cartItems[0].price', in: 'body', message: 'must be >= 0' }] : [];
  return { success: false, error: { code, message: ERROR_MESSAGES[code] ?? code, details } };
}

function exampleErrors(document: Node): void {
  for (const operation of operationsOf(document)) {
    for (const [status, response] of Object.entries(operation.responses)) {
      const media = response.content?.['application/json'];
      if (media && refName(media.schema) === 'Error') media.example = errorExample(status);
    }
  }
}

/** error.code: one of the API's codes (src/errors.ts). */
function enumerateErrorCodes(schemas: Record<string, Node>): void {
  const error = schemas.Error?.properties as { error?: { properties: Node } } | undefined;
  if (error?.error) {
    const { description } = error.error.properties.code as Node;
    error.error.properties.code = { type: 'string', enum: [...ERROR_CODES], description };
  }
}

type Response = { headers?: Record<string, Node>; content?: Record<string, { schema: Node }> };

/** Each response header, the same everywhere, once in components.headers (a variant stays where it is). */
function hoistHeaders(document: Node): Record<string, Node> {
  const headers: Record<string, Node> = {};
  for (const operation of operationsOf(document)) {
    for (const response of Object.values(operation.responses) as Response[]) {
      const own = response.headers ?? {};
      for (const [name, header] of Object.entries(own)) {
        headers[name] ??= header;
        if (canonical(headers[name]) === canonical(header)) own[name] = { $ref: `#/components/headers/${name}` };
      }
    }
  }
  return headers;
}

const RESPONSE_NAMES: Record<string, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  412: 'PreconditionFailed',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'IdempotencyKeyReused',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
};

/** Per error status, its most common response once in components.responses; the others (a route's own meaning) stay. */
function hoistErrorResponses(document: Node): Record<string, Node> {
  const found = new Map<string, { status: string; text: string; count: number; response: Node }>();
  const operations = operationsOf(document);
  for (const operation of operations) {
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!RESPONSE_NAMES[status]) continue;
      const text = canonical(response);
      const key = `${status} ${text}`;
      const seen = found.get(key) ?? { status, text, count: 0, response };
      found.set(key, { ...seen, count: seen.count + 1 });
    }
  }
  const common = new Map<string, { text: string; count: number; response: Node }>();
  for (const entry of found.values()) {
    if ((common.get(entry.status)?.count ?? 0) < entry.count) common.set(entry.status, entry);
  }
  const responses: Record<string, Node> = {};
  for (const [status, { text, response }] of [...common].sort(([a], [b]) => byCodeUnits(a, b))) {
    responses[RESPONSE_NAMES[status]] = response;
    for (const operation of operations) {
      if (operation.responses[status] && canonical(operation.responses[status]) === text) {
        operation.responses[status] = { $ref: `#/components/responses/${RESPONSE_NAMES[status]}` };
      }
    }
  }
  return responses;
}

/** Code-unit order: the same on every ICU, and localeCompare would load collation data into the server. */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The transformObject of @fastify/swagger. */
export function finishDocument({ openapiObject }: { openapiObject: Partial<Node> }): Node {
  const document = openapiObject as Node;
  const componentsObject = (document.components ?? {}) as Node;
  const components = new Components({});
  document.paths = hoistTitled(document.paths, components);
  nameBodiesAndEnvelopes(document, components);
  enumerateErrorCodes(components.schemas);
  for (const [name, example] of Object.entries(COMPONENT_EXAMPLES)) {
    if (components.schemas[name]) components.schemas[name] = { ...components.schemas[name], examples: [example] };
  }
  exampleErrors(document);
  const headers = hoistHeaders(document);
  const responses = hoistErrorResponses(document);
  const parameters = hoistConsistencyParameter(document.paths as Parameters<typeof hoistConsistencyParameter>[0]);
  const sorted = Object.fromEntries(Object.entries(components.schemas).sort(([a], [b]) => byCodeUnits(a, b)));
  document.components = { ...componentsObject, schemas: sorted, responses, parameters, headers };
  return document;
}
