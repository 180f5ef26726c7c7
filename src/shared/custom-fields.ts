import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import type { CustomFields, CustomFieldValue, Tx } from '../db/index.js';
import { type ErrorDetail, validationError } from '../errors.js';

/**
 * Custom fields: what a record carries beyond its own fields (a Shopify metafield, a Google Shopping
 * column, an image's alt text), as flat key -> string | number | boolean. Products, variants,
 * collections, customers and orders have them, under the same rules (docs/products.md, "Custom fields").
 */

export const MAX_CUSTOM_FIELDS = 200;
export const MAX_CUSTOM_FIELD_KEY = 128;
export const MAX_CUSTOM_FIELDS_BYTES = 64 * 1024;

// The stored shape is the jsonb column's (src/db/column-shapes.ts), named here for every resource.
export type { CustomFields, CustomFieldValue };
/** What a write sends: a null value removes the key (PATCH) or is dropped (create). */
export type CustomFieldsPatch = Record<string, CustomFieldValue | null>;

const KEY = { minLength: 1, maxLength: MAX_CUSTOM_FIELD_KEY };
const Value = Type.Unsafe<CustomFieldValue>({ type: ['string', 'number', 'boolean'] });
const ValueOrNull = Type.Unsafe<CustomFieldValue | null>({ type: ['string', 'number', 'boolean', 'null'] });

// Plain JSON schemas with `additionalProperties` as the value's schema: every key is allowed, whatever its
// characters (a TypeBox Record's `^(.*)$` pattern would not match a key holding a line break).

/** The output: every record shows its custom fields, `{}` when it has none. */
export const CustomFieldsSchema = Type.Unsafe<CustomFields>({
  type: 'object',
  additionalProperties: Value,
  title: 'CustomFields',
  description: 'key (1..128 characters) -> string, number or boolean; {} when none',
});

/** The input of every write that takes custom fields; size (64 KB as JSON) is checked by `customFieldsDetails`. */
export const CustomFieldsInput = Type.Optional(
  Type.Unsafe<CustomFieldsPatch>({
    type: 'object',
    additionalProperties: ValueOrNull,
    title: 'CustomFieldsInput',
    maxProperties: MAX_CUSTOM_FIELDS,
    propertyNames: KEY,
    description:
      'at most 200 keys of 1..128 characters, values strings, numbers or booleans, at most 64 KB as JSON. Keys are stored NFC; `__proto__`, `constructor` and `prototype` are refused as keys (400 naming the key). PATCH merges key by key and a key sent as null is removed; on create a null value is dropped',
  }),
);

/** A key as stored: NFC, so the NFD and NFC spellings of `é` (a Mac's file names, a Windows form) are one key. */
const storedKey = (key: string) => key.normalize('NFC');

/**
 * The stored keys that are another spelling of an NFC key (kept as written before keys were normalised),
 * by that key: a patch naming the key replaces or removes them too. Usually empty.
 */
function otherSpellings(stored: CustomFields): Map<string, string[]> {
  const spellings = new Map<string, string[]>();
  for (const key of Object.keys(stored)) {
    const normal = storedKey(key);
    if (normal !== key) spellings.set(normal, [...(spellings.get(normal) ?? []), key]);
  }
  return spellings;
}

/**
 * The patch merged into the stored fields key by key, its keys NFC: a null removes its key. Two spellings
 * of one key in a patch are one key, the later winning as a key written twice in JSON does.
 */
export function mergeCustomFields(stored: CustomFields, patch: CustomFieldsPatch | undefined): CustomFields {
  if (patch === undefined) return stored;
  // A Map, then fromEntries: no key can reach an object's prototype on the way (the input checks refuse
  // `__proto__` in a patch; a record stored before they did keeps its own, served as it is).
  const merged = new Map<string, CustomFieldValue>(Object.entries(stored));
  const spellings = otherSpellings(stored);
  for (const [given, value] of Object.entries(patch)) {
    const key = storedKey(given);
    for (const other of spellings.get(key) ?? []) merged.delete(other);
    if (value === null) merged.delete(key);
    else merged.set(key, value);
  }
  return Object.fromEntries(merged);
}

/** A create's fields: keys NFC, nulls dropped. */
export const newCustomFields = (given: CustomFieldsPatch | undefined): CustomFields => mergeCustomFields({}, given ?? {});

/** What the schema cannot say about the fields a write would store: the key count after a merge, finite numbers, the size. */
export function customFieldsDetails(fields: CustomFields, field = 'customFields'): ErrorDetail[] {
  if (Object.keys(fields).length > MAX_CUSTOM_FIELDS) return [{ field, in: 'body', message: `at most ${MAX_CUSTOM_FIELDS} keys` }];
  // JSON's 1e400 parses to Infinity, which JSON cannot write back: refused rather than stored as null
  const infinite = Object.entries(fields).find(([, value]) => typeof value === 'number' && !Number.isFinite(value));
  if (infinite) return [{ field: `${field}.${infinite[0]}`, in: 'body', message: 'must be a finite number' }];
  if (Buffer.byteLength(JSON.stringify(fields)) > MAX_CUSTOM_FIELDS_BYTES) {
    return [{ field, in: 'body', message: `at most ${MAX_CUSTOM_FIELDS_BYTES} bytes as JSON` }];
  }
  return [];
}

/**
 * A PATCH's custom fields: the record's stored ones (its row locked until the transaction ends, so two
 * merges never lose a key) with `patch` merged in, checked, as the JSON to store; undefined when the store
 * has no such record.
 */
export async function lockAndMergeCustomFields(
  trx: Tx,
  table: 'customers' | 'orders',
  storeId: string,
  id: string,
  patch: CustomFieldsPatch,
): Promise<string | undefined> {
  const { rows } = await sql<{ custom_fields: CustomFields }>`SELECT custom_fields FROM ${sql.table(table)}
    WHERE store_id = ${storeId} AND id = ${id} FOR UPDATE`.execute(trx);
  if (rows.length === 0) return undefined;
  const merged = mergeCustomFields(rows[0].custom_fields, patch);
  const details = customFieldsDetails(merged);
  if (details.length) throw validationError(details);
  return JSON.stringify(merged);
}

/**
 * The stored fields as outputs show them: keys in sorted order (jsonb hands them out shortest first), so
 * an output built from a row is its canonical JSON (src/http/canonical-json.ts). `__proto__` stays a key.
 */
export function customFieldsOutput(stored: CustomFields | null | undefined): CustomFields {
  if (!stored) return {};
  const keys = Object.keys(stored);
  if (keys.length < 2) return { ...stored };
  return Object.fromEntries(keys.sort().map((key) => [key, stored[key]]));
}
