import type { ErrorDetail } from '../errors.js';
import { ALIAS_OF } from '../shared/index.js';
import { childPath, isPlainObject } from './text.js';

/**
 * Walks a request value along the route's own JSON schema (the TypeBox schema that validates it), for the
 * two things Ajv cannot do: accept output names as input aliases, and (with `Prefer: handling=strict`)
 * name every property the schema does not know instead of dropping it silently.
 */

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  items?: JsonSchema | JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  [ALIAS_OF]?: string;
}

interface Walk {
  where: ErrorDetail['in'];
  strict: boolean;
  details: ErrorDetail[];
}

/** A schema and every branch of its unions: a value may follow any of them. */
function branchesOf(schemas: JsonSchema[]): JsonSchema[] {
  return schemas.flatMap((schema) => [schema, ...branchesOf([...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])]);
}

/** A schema that says nothing checkable about an object's keys (`{}`, a `$ref`): anything goes. */
function isOpen(schema: JsonSchema): boolean {
  if (schema.$ref !== undefined || schema.additionalProperties === true) return true;
  const describesKeys = schema.properties || schema.patternProperties || schema.additionalProperties !== undefined;
  const combines = schema.anyOf || schema.oneOf || schema.allOf;
  return !describesKeys && !combines && (schema.type === undefined || schema.type === 'object');
}

/** The schemas one property's value follows, or null when no branch knows the property. */
function propertySchemas(branches: JsonSchema[], key: string): JsonSchema[] | null {
  const found: JsonSchema[] = [];
  let known = false;
  for (const schema of branches) {
    if (isOpen(schema)) known = true;
    const own = schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
    if (own) found.push(own);
    for (const [pattern, sub] of Object.entries(schema.patternProperties ?? {})) {
      if (new RegExp(pattern, 'u').test(key)) found.push(sub);
    }
    if (!own && typeof schema.additionalProperties === 'object') found.push(schema.additionalProperties);
  }
  return found.length > 0 || known ? found : null;
}

/** Replaces each alias by the name it stands for; both names at once is a detail naming the alias. */
function applyAliases(branches: JsonSchema[], value: Record<string, unknown>, path: string, walk: Walk): void {
  for (const schema of branches) {
    for (const [alias, property] of Object.entries(schema.properties ?? {})) {
      const canonical = property[ALIAS_OF];
      if (!canonical || !Object.hasOwn(value, alias)) continue;
      if (Object.hasOwn(value, canonical)) {
        const message = `is the output name of ${canonical}, accepted in its place; send only one of the two`;
        walk.details.push({ field: childPath(path, alias), in: walk.where, message });
        continue;
      }
      value[canonical] = value[alias];
      delete value[alias];
    }
  }
}

function walkObject(branches: JsonSchema[], value: Record<string, unknown>, path: string, walk: Walk): void {
  applyAliases(branches, value, path, walk);
  for (const key of Object.keys(value)) {
    const schemas = propertySchemas(branches, key);
    if (schemas === null) {
      if (walk.strict)
        walk.details.push({ field: childPath(path, key), in: walk.where, message: 'is not a known property (Prefer: handling=strict)' });
      continue;
    }
    if (schemas.length > 0) walkValue(schemas, value[key], childPath(path, key), walk);
  }
}

function walkValue(schemas: JsonSchema[], value: unknown, path: string, walk: Walk): void {
  const branches = branchesOf(schemas);
  if (isPlainObject(value)) {
    walkObject(branches, value, path, walk);
  } else if (Array.isArray(value)) {
    const items = branches.flatMap((schema) => (schema.items && !Array.isArray(schema.items) ? [schema.items] : []));
    if (items.length === 0) return;
    for (let index = 0; index < value.length; index++) walkValue(items, value[index], childPath(path, index), walk);
  }
}

/**
 * Renames aliases in `value` (in place) and returns the details: alias conflicts always, unknown
 * properties only when `strict`. Depth is bounded by the schema's, not by the value's.
 */
export function shapeDetails(schema: JsonSchema, value: unknown, where: ErrorDetail['in'], strict: boolean): ErrorDetail[] {
  const walk: Walk = { where, strict, details: [] };
  walkValue([schema], value, '', walk);
  return walk.details;
}
