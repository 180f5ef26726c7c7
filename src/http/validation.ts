import type { Static, TSchema } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { fromValidation, validationError } from '../errors.js';
import { uniqueDetails } from './input-guard.js';
import { type JsonSchema, shapeDetails } from './shape.js';
import { textDetails } from './text.js';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ajvFormats as unknown as typeof ajvFormats.default;

function makeAjv(coerceTypes: boolean): Ajv {
  // Bodies are typed strictly ("12" is not a number); query strings and paths are parsed.
  // Unknown body properties are dropped, not rejected, so a fetched record can be sent back.
  const ajv = new Ajv({ allErrors: true, coerceTypes, removeAdditional: true, useDefaults: true, strict: false });
  addFormats(ajv);
  return ajv;
}

const bodyAjv = makeAjv(false);
const parameterAjv = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : parameterAjv).compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;

/**
 * A request body's checks outside a request (an import line is the body POST would take): the same input
 * guard (text PostgreSQL can store, output-name aliases) and the same Ajv validation as a route's body,
 * so a bad line fails with the same VALIDATION_ERROR and details as the API. Mutates `value` as a
 * request's validation does (aliases renamed, unknown properties dropped, defaults set).
 */
export function compileBodyCheck<T extends TSchema>(schema: T): (value: unknown) => Static<T> {
  const validate = bodyAjv.compile(schema);
  return (value) => {
    const guarded = [...textDetails(value, 'body', 'body'), ...shapeDetails(schema as JsonSchema, value, 'body', false)];
    if (guarded.length > 0) throw validationError(uniqueDetails(guarded));
    if (!validate(value)) throw fromValidation(validate.errors ?? [], 'body');
    return value as Static<T>;
  };
}
