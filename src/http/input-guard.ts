import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AjvLikeError, type ErrorDetail, fromValidation } from '../errors.js';
import { API_PREFIX, type Handling, inputError, type JsonSchema, shapeDetails, textDetails } from '../shared/index.js';

/**
 * The checks every request passes before its route's schema validates it, in one place for every route:
 * no string PostgreSQL cannot store (NUL, lone surrogates) in the path, query, body or headers; output
 * names accepted as input aliases; the read-only names of the record (as GET returns it) ignored; and every
 * other body property or query parameter the operation does not know refused by name, unless the client
 * asks for `Prefer: handling=lenient` (RFC 7240), which removes them instead.
 */

/** The `handling` the Prefer header states (the first one counts, RFC 7240 §2), or null when it states none. */
export function statedHandling(header: string | string[] | undefined): Handling | null {
  const values = Array.isArray(header) ? header : header ? [header] : [];
  for (const preference of values.flatMap((value) => value.split(','))) {
    const [token, ...rest] = preference.split(';')[0].split('=');
    if (token.trim().toLowerCase() !== 'handling') continue;
    const value = rest.join('=').trim().replace(/^"|"$/g, '').toLowerCase();
    return value === 'strict' || value === 'lenient' ? value : null;
  }
  return null;
}

/** How a request's unknown names are handled: strict unless it prefers lenient. */
export const handlingOf = (request: Pick<FastifyRequest, 'headers'>): Handling => statedHandling(request.headers.prefer) ?? 'strict';

/** onRequest: a request that states its handling is told it was applied, on every answer, errors included. */
export async function announceHandling(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const stated = statedHandling(request.headers.prefer);
  if (stated) reply.header('Preference-Applied', `handling=${stated}`);
}

// A route without a query schema reads no parameter: each one is unknown.
const NO_PARAMETERS: JsonSchema = { type: 'object', properties: {} };

interface RouteSchema {
  body?: JsonSchema;
  querystring?: JsonSchema;
  response?: Record<string, JsonSchema>;
}

const representations = new WeakMap<object, JsonSchema | null>();

/**
 * The record a write answers with (the `data` of its 2xx response: the resource as GET returns it), whose
 * names the body may carry as read-only. Derived once per route schema.
 */
export function representationOf(schema: RouteSchema): JsonSchema | undefined {
  if (!representations.has(schema)) {
    const success = Object.entries(schema.response ?? {}).find(([status]) => /^2\d\d$/.test(status))?.[1];
    const data = success?.properties?.data;
    representations.set(schema, data?.properties ? data : null);
  }
  return representations.get(schema) ?? undefined;
}

/** What these checks find wrong in the text of the headers, path and query. */
const requestLineText = (request: FastifyRequest): ErrorDetail[] => [
  ...textDetails(request.headers, 'header', 'headers'),
  ...textDetails(request.params, 'path', 'path'),
  ...textDetails(request.query, 'query', 'query'),
];

/** The query's names the operation does not know. Operations of the API only: a media URL or the docs page may carry a cache-buster. */
function queryShape(request: FastifyRequest): ErrorDetail[] {
  if (!request.routeOptions.url?.startsWith(API_PREFIX)) return [];
  const schema = (request.routeOptions.schema ?? {}) as RouteSchema;
  return shapeDetails(schema.querystring ?? NO_PARAMETERS, request.query, 'query', { handling: handlingOf(request) });
}

/** preValidation: throws one 400 VALIDATION_ERROR naming every field these checks find wrong. */
export async function guardInput(request: FastifyRequest): Promise<void> {
  const handling = handlingOf(request);
  const schema = (request.routeOptions.schema ?? {}) as RouteSchema;
  const details = [...requestLineText(request), ...textDetails(request.body, 'body', 'body')];
  if (schema.body && request.body !== undefined) {
    details.push(...shapeDetails(schema.body, request.body, 'body', { handling, representation: representationOf(schema) }));
  }
  details.push(...queryShape(request));
  if (details.length > 0) throw inputError(details);
}

/**
 * The same checks of everything but the body, and the route's query schema, for a route that must refuse a
 * request before it reads a byte of its body (POST /imports: a body of up to 1 GiB is streamed to storage
 * as it arrives). Call it from a preParsing hook; the checks run again after parsing, and pass again.
 */
export function guardRequestLine(request: FastifyRequest): void {
  const details = [...requestLineText(request), ...queryShape(request)];
  if (details.length > 0) throw inputError(details);
  const validate = request.routeOptions.schema?.querystring ? request.getValidationFunction('querystring') : undefined;
  if (validate && !validate(request.query)) throw fromValidation((validate.errors ?? []) as AjvLikeError[], 'querystring');
}
