import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

export interface ErrorDetail {
  field: string;
  in: 'body' | 'query' | 'path' | 'header';
  message: string;
}

/**
 * Every error.code the API answers with (docs/api.md, "Errors"): the OpenAPI document lists them as the
 * code's enum, and an AppError takes no other (REQUEST_TIMEOUT and HEADERS_TOO_LARGE are answered on the
 * socket, src/http/server-limits.ts).
 */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'DUPLICATE_VALUE',
  'INVALID_JSON',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'REQUEST_TIMEOUT',
  'IDEMPOTENCY_KEY_IN_USE',
  'INSUFFICIENT_STOCK',
  'INVENTORY_CHANGED',
  'MULTI_LOCATION_STOCK',
  'LOCATION_NOT_EMPTY',
  'REPLAY_IN_PROGRESS',
  'PRECONDITION_FAILED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'IDEMPOTENCY_KEY_REUSED',
  'RATE_LIMITED',
  'HEADERS_TOO_LARGE',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The one error type: every non-2xx response is built from one of these. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (what = 'Resource') => new AppError(404, 'NOT_FOUND', `${what} not found`);

/**
 * The record a lookup found, else 404 NOT_FOUND naming what was looked for: `found(row, 'Product')` is
 * "Product not found". `false` counts as not found, so a lookup guarded by the id's form reads
 * `found(isId(id) && (await findRow(db, storeId, id)), 'Product')`: a malformed id is never looked up.
 */
export function found<T>(row: T | false | null | undefined, what: string): T {
  if (row === undefined || row === null || row === false) throw notFound(what);
  return row;
}

export const validationError = (details: ErrorDetail[], message = 'Request validation failed') =>
  new AppError(400, 'VALIDATION_ERROR', message, details);

export const invalidField = (field: string, message: string, where: ErrorDetail['in'] = 'body') =>
  validationError([{ field, in: where, message }]);

export const duplicateValue = (field: string, message = `${field} is already taken in this store`, status = 400) =>
  new AppError(status, 'DUPLICATE_VALUE', message, [{ field, in: 'body', message }]);

/** A 401; `challenge` is the `WWW-Authenticate` value (RFC 6750: `Bearer` plus, for a refused credential, its error). */
export const unauthorized = (message = 'Missing or invalid bearer credential', challenge = 'Bearer') =>
  new AppError(401, 'UNAUTHORIZED', message, [], { 'WWW-Authenticate': challenge });

export const forbidden = (scope: string) => new AppError(403, 'FORBIDDEN', `This credential lacks the scope ${scope}`);

export const rateLimited = (retryAfterSeconds: number) =>
  new AppError(429, 'RATE_LIMITED', 'Too many requests', [], { 'Retry-After': String(Math.max(1, retryAfterSeconds)) });

/**
 * The API field behind every unique constraint and unique index of migrations/: a unique violation (23505)
 * names its constraint, and the DUPLICATE_VALUE error names the field. src/errors.unit.test.ts parses the
 * migrations and fails when one has no entry here (or an entry names none of them).
 */
export const UNIQUE_FIELDS: Readonly<Record<string, string>> = {
  stores_slug_key: 'slug',
  admins_email_key: 'email',
  api_keys_key_hash_key: 'key',
  attribute_sets_name_key: 'name',
  attributes_name_key: 'name',
  attribute_values_name_key: 'values',
  products_handle_key: 'handle',
  collections_handle_key: 'handle',
  customers_user_name_key: 'userName',
  customers_email_key: 'email',
  // Only reachable if the customer lock were bypassed; named so the error still says which field.
  addresses_default_key: 'isDefault',
  orders_custom_order_id_key: 'customOrderId',
  // Event ids are generated; only reachable if two generated ids collided.
  events_store_id_idx: 'id',
  // One running replay per webhook: the insert's ON CONFLICT answers 409 REPLAY_IN_PROGRESS first; named so
  // that a bypass would still say which record it is about.
  webhook_replays_one_per_webhook: 'id',
  locations_name_key: 'name',
  locations_code_key: 'code',
  // Only reachable if the store's location lock were bypassed (the old default is cleared first).
  locations_default_key: 'isDefault',
  price_lists_name_key: 'name',
};

/** Unique values whose duplicate CONTRACT §13 answers with 409 rather than §3's 400: a location's name and code. */
const CONFLICTING_UNIQUES = new Set(['locations_name_key', 'locations_code_key']);

/** SQLSTATE of migrations/0114's stock trigger: a total written through a product or variant of multi-location stock. */
const MULTI_LOCATION_STOCK = 'SF409';

interface PgLikeError {
  code?: string;
  constraint?: string;
  detail?: string;
}

/** A stock or totalStock written through a product or variant whose item has stock at another location (CONTRACT §13). */
export const multiLocationStock = (field: string) =>
  new AppError(
    409,
    'MULTI_LOCATION_STOCK',
    'The item has stock at more than one location: change it per location with POST /inventory-levels/set or /inventory-levels/adjust',
    [{ field, in: 'body', message: 'cannot be written as one figure while the item has stock at another location: use /inventory-levels' }],
  );

const CONTENTION_CODES = new Set(['40P01', '40001']);
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', '57P01', '57P02', '57P03']);

/** PostgreSQL error codes are mapped here and only here. */
export function fromDatabaseError(error: PgLikeError & Error): AppError | null {
  const code = error.code ?? '';
  if (code === '23505') {
    const field = (error.constraint && Object.hasOwn(UNIQUE_FIELDS, error.constraint) && UNIQUE_FIELDS[error.constraint]) || 'value';
    return duplicateValue(field, undefined, CONFLICTING_UNIQUES.has(error.constraint ?? '') ? 409 : 400);
  }
  if (code === MULTI_LOCATION_STOCK) return multiLocationStock(error.detail ?? 'stock');
  if (code === '23503') return invalidField('reference', 'A referenced record does not exist in this store');
  if (code === '22P02' || code === '22003' || code === '22001') return invalidField('value', 'A value is out of range');
  // Deadlock victim or lost serialization race even after withTx's retries: nothing was written, and
  // trying again shortly is the cure, which is what 503 with Retry-After says (docs/decisions.md).
  if (CONTENTION_CODES.has(code)) {
    return new AppError(
      503,
      'SERVICE_UNAVAILABLE',
      'Too many concurrent changes to the same records; nothing was changed, retry shortly',
      [],
      {
        'Retry-After': '1',
      },
    );
  }
  if (
    UNAVAILABLE_CODES.has(code) ||
    code.startsWith('08') ||
    /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|is not queryable/i.test(error.message)
  ) {
    return new AppError(503, 'SERVICE_UNAVAILABLE', 'The database is unavailable, retry shortly', [], { 'Retry-After': '1' });
  }
  return null;
}

export interface AjvLikeError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

const PART_TO_LOCATION: Record<string, ErrorDetail['in']> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

/** `/cartItems/0/price` -> `cartItems[0].price` */
export function toFieldPath(instancePath: string, missing?: unknown): string {
  const parts = instancePath.split('/').slice(1);
  if (typeof missing === 'string') parts.push(missing);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

function describe(error: AjvLikeError): string {
  if (error.keyword === 'required') return 'is required';
  if (error.keyword === 'additionalProperties') return 'is not a known property of this operation';
  if (error.keyword === 'enum' && Array.isArray(error.params.allowedValues)) {
    return `must be one of: ${error.params.allowedValues.filter((v) => v !== null).join(', ')}`;
  }
  return error.message ?? 'is invalid';
}

export function fromValidation(errors: AjvLikeError[], part: string): AppError {
  const location = PART_TO_LOCATION[part] ?? 'body';
  if (location === 'path') return notFound();
  const seen = new Map<string, ErrorDetail>();
  for (const error of errors) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    const field = toFieldPath(error.instancePath, error.params.missingProperty ?? error.params.additionalProperty) || part;
    if (!seen.has(field)) seen.set(field, { field, in: location, message: describe(error) });
  }
  return validationError([...seen.values()]);
}

const FRAMEWORK_ERRORS: Record<string, [number, ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'The body must be application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'INVALID_JSON', 'Content-Length does not match the body'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE', 'The body is larger than the limit'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'INVALID_JSON', 'The body is empty but Content-Type is application/json'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'INVALID_JSON', 'The body is not valid JSON'],
  FST_ERR_BAD_URL: [404, 'NOT_FOUND', 'Resource not found'],
  FST_ERR_MAX_PARAM_LENGTH: [404, 'NOT_FOUND', 'Resource not found'],
};

/** A client error nothing above names keeps its status; its code is CONTRACT's for that status, else the status's name. */
const CONTRACT_CODES: Record<number, ErrorCode> = { 429: 'RATE_LIMITED' };

function clientError(status: number, message: string): AppError {
  const name = (STATUS_CODES[status] ?? 'Bad Request').toUpperCase().replace(/[^A-Z0-9]+/g, '_');
  // A framework 4xx outside the list (none is known to reach here) keeps its status's name as code.
  return new AppError(status, CONTRACT_CODES[status] ?? (name as ErrorCode), message);
}

export function toAppError(error: FastifyError & PgLikeError): AppError {
  if (error instanceof AppError) return error;
  if (error.validation) return fromValidation(error.validation as AjvLikeError[], error.validationContext ?? 'body');
  const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
  if (known) return new AppError(known[0], known[1], known[2]);
  if (error instanceof SyntaxError && error.statusCode === 400) return new AppError(400, 'INVALID_JSON', 'The body is not valid JSON');
  if (error.statusCode === 429) return rateLimited(1);
  if (error.statusCode === 413) return new AppError(413, 'PAYLOAD_TOO_LARGE', 'The body is larger than the limit');
  if (error.statusCode === 415) return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'The body must be application/json');
  const fromDb = fromDatabaseError(error);
  if (fromDb) return fromDb;
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return clientError(error.statusCode, error.message);
  return new AppError(500, 'INTERNAL_ERROR', 'Internal server error');
}

/** The body of every error response. */
export const errorEnvelope = (error: AppError) => ({
  success: false as const,
  error: { code: error.code, message: error.message, details: error.details },
});

declare module 'fastify' {
  interface FastifyReply {
    /** the code of the error envelope sent (sendError), for the store's Requests log; null for any other answer */
    errorCode: ErrorCode | null;
  }
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  reply.errorCode = error.code;
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.status(error.status).send(errorEnvelope(error));
}

/** The one error handler of the app. */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const appError = toAppError(error);
  if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
  return sendError(reply, appError);
}
