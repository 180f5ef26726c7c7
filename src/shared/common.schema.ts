import { type Static, type TProperties, type TSchema, Type } from '@sinclair/typebox';
import type { ErrorDetail } from '../errors.js';

/** Schema helpers shared by every resource: one schema per shape validates, types, serializes and documents. */

export const ID_PATTERN = '^[0-9a-f]{24}$';
export const Id = Type.String({ pattern: ID_PATTERN });
/** A record's id in a path: 24 hexadecimal characters (anything else is a 400, never a 404). */
export const PathId = (what: string) => Type.String({ pattern: ID_PATTERN, description: `${what} (24 hexadecimal characters)` });
export const IdParams = Type.Object({ id: PathId("the record's identifier") });
export const Timestamp = Type.String({ format: 'date-time' });
/** `schema` with a `description` (what the property is, its unit, default and constraints in words), for the OpenAPI document. */
export function Described<T extends TSchema>(schema: T, description: string): T {
  return { ...schema, description };
}
export const CreatedAt = Described(Timestamp, 'when the record was created (ISO 8601, UTC, milliseconds); read-only');
export const UpdatedAt = Described(Timestamp, 'when the record last changed (ISO 8601, UTC, milliseconds); read-only');
export const RecordId = Type.String({
  description: "the record's identifier (24 hexadecimal characters), assigned by the server; read-only",
});

/** A caller-supplied creation time of an imported record: checked by `pastTimestampDetails`. */
export const PastTimestamp = Type.String({ format: 'date-time', description: 'a date-time in the past (1970 or later)' });
const EPOCH = 0;
// A caller stamping a record "now" with a clock slightly ahead of ours is not refused.
const CLOCK_SKEW_MS = 60_000;

/** Problems with a `PastTimestamp` value, as error details (none when it is fine or absent). */
export function pastTimestampDetails(value: string | null | undefined, field: string): ErrorDetail[] {
  if (value == null) return [];
  const time = Date.parse(value);
  if (Number.isNaN(time) || time < EPOCH) return [{ field, in: 'body', message: 'must be a date-time from 1970 on' }];
  if (time > Date.now() + CLOCK_SKEW_MS) return [{ field, in: 'body', message: 'must not be in the future' }];
  return [];
}

/** createdAt (the supplied past time, or now) and updatedAt (now: the record is written now, never before it was created). */
export function creationTimes(supplied: string | null | undefined): { createdAt: Date; updatedAt: Date } {
  const now = new Date();
  const createdAt = supplied == null ? now : new Date(supplied);
  return { createdAt, updatedAt: createdAt > now ? createdAt : now };
}

/** `T | null` as a JSON-Schema type list, so validation errors name one rule instead of an anyOf. */
export function Nullable<T extends TSchema>(schema: T) {
  const type = (schema as { type?: string | string[] }).type;
  const types = Array.isArray(type) ? [...type, 'null'] : type ? [type, 'null'] : undefined;
  const enumValues = (schema as { enum?: unknown[] }).enum;
  return Type.Unsafe<Static<T> | null>({
    ...schema,
    ...(types ? { type: types } : {}),
    ...(enumValues ? { enum: [...enumValues, null] } : {}),
  });
}

export function StringEnum<const T extends readonly string[]>(values: T, options: { default?: T[number]; description?: string } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** A request body object: unknown properties are dropped (not stored, not echoed), never an error. */
export function Body<T extends TProperties>(properties: T, options: { title?: string; description?: string } = {}) {
  return Type.Object(properties, { ...options, additionalProperties: false });
}

/** The JSON-schema keyword that marks a property as an alias (an extension: Ajv and OpenAPI pass it through). */
export const ALIAS_OF = 'x-alias-of';

/**
 * The output name of a body property, accepted on input in place of `canonical` so a mapping script that
 * sends back what it read loses nothing; sending both names is a 400 naming the alias (src/http/shape.ts).
 */
export function Alias<T extends TSchema>(canonical: string, schema: T) {
  return Type.Optional(
    Type.Unsafe<Static<T>>({
      ...schema,
      [ALIAS_OF]: canonical,
      description: `alias of ${canonical} (its output name); send one of the two`,
    }),
  );
}

export const Text = (maxLength = 10_000) => Type.String({ maxLength });
export const Name = (maxLength = 255) => Type.String({ minLength: 1, maxLength, pattern: '\\S' });
export const Money = Type.Number({ minimum: 0, maximum: 1e12 });

/**
 * A `title` names a schema in the OpenAPI document: it becomes `#/components/schemas/<title>`, referenced
 * wherever the schema appears (src/http/openapi-components.ts). Validation and serialization ignore it.
 */
const ErrorDetailSchema = Type.Object(
  {
    field: Type.String({ description: 'the field, as `cartItems[0].price`' }),
    in: StringEnum(['body', 'query', 'path', 'header'], {
      description: 'where the field was: the body, the query string, the path or a header',
    }),
    message: Type.String({ description: 'what is wrong with it, in English, for a human' }),
  },
  { title: 'ErrorDetail' },
);

export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false, { description: 'always false on an error' }),
    error: Type.Object(
      {
        code: Type.String({ description: 'one of a fixed list: docs/api.md, "Errors"' }),
        message: Type.String({ description: 'what went wrong, in English, for a human (may change; branch on code)' }),
        details: Type.Array(ErrorDetailSchema, { description: 'one entry per field at fault; empty when no field is' }),
      },
      { description: 'what went wrong' },
    ),
  },
  { title: 'Error', description: 'the body of every error answer' },
);

export const Pagination = Type.Object(
  {
    page: Nullable(Type.Integer({ description: 'null when the page was asked for by cursor' })),
    limit: Type.Integer({ description: 'the page size asked for (default 25)' }),
    total: Type.Integer({ description: 'exact, in page and cursor mode alike' }),
    totalPages: Type.Integer({ description: 'ceil(total / limit); 0 when there is no record' }),
    nextCursor: Nullable(
      Type.String({ description: 'pass as cursor (same path, sort, filters, limit) for the next page; null on the last page' }),
    ),
  },
  { title: 'Pagination', description: 'where this page is in the whole list' },
);
export type Pagination = Static<typeof Pagination>;

const SUCCESS = Type.Literal(true, { description: 'always true on a success' });

export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({ success: SUCCESS, data });
}

export function ListEnvelope<T extends TSchema>(item: T) {
  return Type.Object({
    success: SUCCESS,
    data: Type.Array(item, { description: "this page's records, in the order asked for" }),
    pagination: Pagination,
  });
}

export const DeletedEnvelope = Envelope(
  Type.Object(
    { id: Type.String({ description: 'the identifier of the record deleted' }) },
    { title: 'Deleted', description: 'the record that was deleted' },
  ),
);
