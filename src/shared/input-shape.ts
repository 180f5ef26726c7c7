import type { ErrorDetail } from '../errors.js';
import { ALIAS_OF } from './common.schema.js';
import { childPath, isPlainObject } from './input-text.js';

/**
 * Walks a request value along the route's own JSON schemas (the TypeBox schemas that validate it and that
 * describe the record it writes) for what Ajv cannot do: accept output names as input aliases, ignore the
 * read-only names of the record as GET returns it (so a fetched record can be sent back), and refuse every
 * other name the write does not know, by its path, instead of dropping it silently (docs/api.md,
 * "Unknown input is refused").
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

/** `strict` (the default) refuses unknown names; `lenient` (Prefer: handling=lenient) removes them. */
export type Handling = 'strict' | 'lenient';

export interface ShapeOptions {
  handling: Handling;
  /** the record's representation (what GET returns): names it has and the write lacks are read-only, removed */
  representation?: JsonSchema;
}

interface Walk {
  where: ErrorDetail['in'];
  handling: Handling;
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

/**
 * The schemas one property's value follows, or null when no branch knows the property. An open schema
 * knows every name when it is the write's (`openKnowsAll`); a representation knows only the names it lists,
 * so an open output shape never hides an unknown name.
 */
function propertySchemas(branches: JsonSchema[], key: string, openKnowsAll: boolean): JsonSchema[] | null {
  const found: JsonSchema[] = [];
  let known = false;
  for (const schema of branches) {
    if (openKnowsAll && isOpen(schema)) known = true;
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

const UNKNOWN = 'is not a known property of this operation (Prefer: handling=lenient ignores unknown names)';

function walkObject(write: JsonSchema[], read: JsonSchema[], value: Record<string, unknown>, path: string, walk: Walk): void {
  applyAliases(write, value, path, walk);
  for (const key of Object.keys(value)) {
    const writeSchemas = propertySchemas(write, key, true);
    const readSchemas = propertySchemas(read, key, false);
    if (writeSchemas !== null) {
      if (writeSchemas.length > 0) walkValue(writeSchemas, readSchemas ?? [], value[key], childPath(path, key), walk);
    } else if (readSchemas !== null || walk.handling === 'lenient') {
      // a read-only name of the record (id, createdAt, …), or an unknown one the caller asked to have ignored
      delete value[key];
    } else {
      walk.details.push({ field: childPath(path, key), in: walk.where, message: UNKNOWN });
    }
  }
}

const itemsOf = (branches: JsonSchema[]) =>
  branches.flatMap((schema) => (schema.items && !Array.isArray(schema.items) ? [schema.items] : []));

/** Whether a value of these schemas may be an object (else an object there is a type error, Ajv's to name). */
const mayBeObject = (branches: JsonSchema[]) =>
  branches.some(({ type }) => type === undefined || type === 'object' || (Array.isArray(type) && type.includes('object')));

function walkValue(writeSchemas: JsonSchema[], readSchemas: JsonSchema[], value: unknown, path: string, walk: Walk): void {
  const write = branchesOf(writeSchemas);
  const read = branchesOf(readSchemas);
  if (isPlainObject(value)) {
    if (!mayBeObject(write)) return;
    walkObject(write, read, value, path, walk);
  } else if (Array.isArray(value)) {
    const items = itemsOf(write);
    if (items.length === 0) return;
    const readItems = itemsOf(read);
    for (let index = 0; index < value.length; index++) walkValue(items, readItems, value[index], childPath(path, index), walk);
  }
}

/**
 * Renames aliases in `value` and removes the representation's read-only names (in place), and, when
 * lenient, the unknown names too; returns the details: alias conflicts always, unknown names when strict.
 * Depth is bounded by the schema's, not by the value's.
 */
export function shapeDetails(schema: JsonSchema, value: unknown, where: ErrorDetail['in'], options: ShapeOptions): ErrorDetail[] {
  const walk: Walk = { where, handling: options.handling, details: [] };
  walkValue([schema], options.representation ? [options.representation] : [], value, '', walk);
  return walk.details;
}
