import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorDetail, validationError } from '../errors.js';
import { type JsonSchema, shapeDetails } from './shape.js';
import { MAX_TEXT_DETAILS, textDetails } from './text.js';

/**
 * The checks every request passes before its route's schema validates it, in one place for every route:
 * no string PostgreSQL cannot store (NUL, lone surrogates) in the path, query, body or headers; output
 * names accepted as input aliases; and, when the client asks with `Prefer: handling=strict` (RFC 7240),
 * every unknown body property and query parameter named instead of silently dropped.
 */

/** The `handling` preference of a Prefer header: the first one counts (RFC 7240 §2). */
export function prefersStrictHandling(header: string | string[] | undefined): boolean {
  const values = Array.isArray(header) ? header : header ? [header] : [];
  for (const preference of values.flatMap((value) => value.split(','))) {
    const [token, ...rest] = preference.split(';')[0].split('=');
    if (token.trim().toLowerCase() !== 'handling') continue;
    return rest.join('=').trim().replace(/^"|"$/g, '').toLowerCase() === 'strict';
  }
  return false;
}

/** onRequest: a strict request says so on every answer, errors included. */
export async function announceStrictHandling(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (prefersStrictHandling(request.headers.prefer)) reply.header('Preference-Applied', 'handling=strict');
}

// A route without a query schema reads no parameter: in strict mode each one is unknown.
const NO_PARAMETERS: JsonSchema = { type: 'object', properties: {} };

interface RouteSchema {
  body?: JsonSchema;
  querystring?: JsonSchema;
}

export function uniqueDetails(details: ErrorDetail[]): ErrorDetail[] {
  const seen = new Map<string, ErrorDetail>();
  for (const detail of details) {
    const key = `${detail.in}\u0000${detail.field}`;
    if (!seen.has(key)) seen.set(key, detail);
  }
  return [...seen.values()].slice(0, MAX_TEXT_DETAILS);
}

/** preValidation: throws one 400 VALIDATION_ERROR naming every field these checks find wrong. */
export async function guardInput(request: FastifyRequest): Promise<void> {
  const strict = prefersStrictHandling(request.headers.prefer);
  const schema = (request.routeOptions.schema ?? {}) as RouteSchema;
  const details = [
    ...textDetails(request.headers, 'header', 'headers'),
    ...textDetails(request.params, 'path', 'path'),
    ...textDetails(request.query, 'query', 'query'),
    ...textDetails(request.body, 'body', 'body'),
  ];
  if (schema.body && request.body !== undefined) details.push(...shapeDetails(schema.body, request.body, 'body', strict));
  if (strict) details.push(...shapeDetails(schema.querystring ?? NO_PARAMETERS, request.query, 'query', true));
  if (details.length > 0) throw validationError(uniqueDetails(details));
}
