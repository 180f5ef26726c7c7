import type { Static, TSchema } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { type AppError, type ErrorDetail, fromValidation, validationError } from '../errors.js';
import { type Handling, type JsonSchema, shapeDetails } from './input-shape.js';
import { forbiddenKeyMessageOf, MAX_TEXT_DETAILS, textDetails } from './input-text.js';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ajvFormats as unknown as typeof ajvFormats.default;

// A UTC offset PostgreSQL takes (it refuses displacements past 15:59 as out of range).
const OFFSET = /([+-])(\d\d):?(\d\d)$/;

/**
 * An RFC 3339 date-time (already matched by the format's pattern) that PostgreSQL can store: in years 1
 * to 9999 once moved to UTC, with an offset it accepts. Else `updatedSince=0000-01-01T00:00:00Z` reached
 * the database and came back a 500 instead of a 400 naming the parameter.
 */
export function isStorableDateTime(value: string): boolean {
  const offset = OFFSET.exec(value);
  if (offset && Number(offset[2]) > 15) return false;
  // a leap second (:60) is valid RFC 3339 that Date.parse does not take
  const time = Date.parse(value.toUpperCase().replace(/:60(?=[.Z+-]|$)/, ':59'));
  if (!Number.isFinite(time)) return false;
  const year = new Date(time).getUTCFullYear();
  return year >= 1 && year <= 9999;
}

function makeAjv(coerceTypes: boolean): Ajv {
  // Bodies are typed strictly ("12" is not a number); query strings and paths are parsed. Nothing is
  // removed here: the input guard (shape.ts) has already refused or removed every name the write does not
  // know, so a property a closed schema meets here is a 400, never silently dropped.
  const ajv = new Ajv({ allErrors: true, coerceTypes, removeAdditional: false, useDefaults: true, strict: false });
  addFormats(ajv);
  const rfc3339 = ajv.formats['date-time'] as { validate: (value: string) => boolean; compare: (a: string, b: string) => number };
  ajv.addFormat('date-time', { ...rfc3339, validate: (value: string) => rfc3339.validate(value) && isStorableDateTime(value) });
  return ajv;
}

const bodyAjv = makeAjv(false);
const parameterAjv = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : parameterAjv).compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;

/**
 * A request body's checks outside a request (an import line is the body POST would take): the same input
 * guard (text PostgreSQL can store, output-name aliases, `representation`'s read-only names ignored,
 * unknown names refused unless `handling` is lenient) and the same Ajv validation as a route's body, so a
 * bad line fails with the same VALIDATION_ERROR and details as the API. Mutates `value` as a request's
 * validation does (aliases renamed, read-only and ignored names removed, defaults set).
 */
export function compileBodyCheck<T extends TSchema>(
  schema: T,
  representation?: TSchema,
): (value: unknown, handling?: Handling) => Static<T> {
  const validate = bodyAjv.compile(schema);
  return (value, handling = 'strict') => {
    const shape = { handling, representation: representation as JsonSchema | undefined };
    const guarded = [...textDetails(value, 'body', 'body'), ...shapeDetails(schema as JsonSchema, value, 'body', shape)];
    if (guarded.length > 0) throw inputError(guarded);
    if (!validate(value)) throw fromValidation(validate.errors ?? [], 'body');
    return value as Static<T>;
  };
}

/**
 * The 400 of the input checks a request and an import line share: one detail per field and place, its
 * message the forbidden key's when one is named.
 */
export function inputError(details: ErrorDetail[]): AppError {
  const unique = uniqueDetails(details);
  return validationError(unique, forbiddenKeyMessageOf(unique));
}

/** One detail per field and place (the first found), at most as many as a 400 names. */
function uniqueDetails(details: ErrorDetail[]): ErrorDetail[] {
  const seen = new Map<string, ErrorDetail>();
  for (const detail of details) {
    const key = `${detail.in}\u0000${detail.field}`;
    if (!seen.has(key)) seen.set(key, detail);
  }
  return [...seen.values()].slice(0, MAX_TEXT_DETAILS);
}
