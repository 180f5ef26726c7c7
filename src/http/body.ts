import type { Static, TSchema } from '@sinclair/typebox';
import { fromValidation, validationError } from '../errors.js';
import { uniqueDetails } from './input-guard.js';
import { type JsonSchema, shapeDetails } from './shape.js';
import { textDetails } from './text.js';
import { validatorCompiler } from './validation.js';

type Check = ((value: unknown) => boolean) & { errors?: Parameters<typeof fromValidation>[0] | null };

/**
 * A JSON body checked outside a request (an import line is the body POST would take), exactly as a route
 * checks its body: the input guard's text and alias checks (non-strict: unknown properties are dropped),
 * then the route's TypeBox schema through the same Ajv (no coercion, defaults applied). Throws the same
 * 400 VALIDATION_ERROR with the same details the route would answer. Works on a copy of `value`.
 */
export function bodyValidator<S extends TSchema>(schema: S): (value: unknown) => Static<S> {
  const check = validatorCompiler({ schema, method: 'POST', url: '', httpPart: 'body' }) as unknown as Check;
  return (value) => {
    const body = structuredClone(value);
    const details = [...textDetails(body, 'body', 'body'), ...shapeDetails(schema as JsonSchema, body, 'body', false)];
    if (details.length > 0) throw validationError(uniqueDetails(details));
    if (!check(body)) throw fromValidation(check.errors ?? [], 'body');
    return body as Static<S>;
  };
}
