import { type Static, type TObject, type TProperties, type TSchema, Type } from '@sinclair/typebox';

/** Schema helpers shared by every resource: one schema per shape validates, types, serializes and documents. */

export const ID_PATTERN = '^[0-9a-f]{24}$';
export const Id = Type.String({ pattern: ID_PATTERN });
export const IdParams = Type.Object({ id: Type.String({ pattern: ID_PATTERN }) });
export const Timestamp = Type.String({ format: 'date-time' });

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
export function Body<T extends TProperties>(properties: T) {
  return Type.Object(properties, { additionalProperties: false });
}

export const Text = (maxLength = 10_000) => Type.String({ maxLength });
export const Name = (maxLength = 255) => Type.String({ minLength: 1, maxLength, pattern: '\\S' });
export const Money = Type.Number({ minimum: 0, maximum: 1e12 });

export const ErrorEnvelope = Type.Object(
  {
    success: Type.Boolean(),
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      details: Type.Array(Type.Object({ field: Type.String(), in: Type.String(), message: Type.String() })),
    }),
  },
  { $id: 'ErrorEnvelope' },
);

export const Pagination = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  totalPages: Type.Integer(),
});
export type Pagination = Static<typeof Pagination>;

export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({ success: Type.Boolean(), data });
}

export function ListEnvelope<T extends TSchema>(item: T) {
  return Type.Object({ success: Type.Boolean(), data: Type.Array(item), pagination: Pagination });
}

export const DeletedEnvelope = Envelope(Type.Object({ id: Type.String() }));

export type ObjectSchema = TObject;
