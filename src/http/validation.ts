import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

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
