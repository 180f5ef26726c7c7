import { createHash } from 'node:crypto';
/**
 * JSON with every object's keys sorted: one text per value, whatever order a code path built it in (the
 * input of ETags). Written out directly, and the sorted order of a key set is kept per set of keys: the
 * records of a resource share a few key sets, so a GET's ETag sorts nothing after the first requests.
 * Same text as `JSON.stringify` with sorted keys (an `undefined` property is left out, `undefined` in an
 * array is null; `toJSON` is honoured).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return canonicalJson((value as { toJSON(): unknown }).toJSON());
  if (Array.isArray(value)) return arrayJson(value);
  return objectJson(value as Record<string, unknown>);
}

function arrayJson(items: unknown[]): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ',';
    const item = items[i];
    out += item === undefined ? 'null' : canonicalJson(item);
  }
  return `${out}]`;
}

function objectJson(object: Record<string, unknown>): string {
  const { keys, prefixes } = sortedKeys(Object.keys(object));
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const item = object[keys[i]];
    if (item === undefined) continue;
    out += out.length === 1 ? prefixes[i] : `,${prefixes[i]}`;
    out += canonicalJson(item);
  }
  return `${out}}`;
}

interface SortedKeys {
  /** the key set in the order it was met (to tell apart key sets whose joined signatures collide) */
  original: string[];
  keys: string[];
  /** `"key":` of each key, JSON-escaped once */
  prefixes: string[];
}

// Bounded: objects keyed by data (a variant's option names) could otherwise make a key set per record.
const SORTED_KEYS_KEPT = 1000;
const sortedKeysOf = new Map<string, SortedKeys>();

function sortedKeys(keys: string[]): SortedKeys {
  const signature = keys.join('\u0000');
  const known = sortedKeysOf.get(signature);
  if (known && sameKeys(known.original, keys)) return known;
  const sorted = [...keys].sort();
  const entry = { original: keys, keys: sorted, prefixes: sorted.map((key) => `${JSON.stringify(key)}:`) };
  if (!known && sortedKeysOf.size < SORTED_KEYS_KEPT) sortedKeysOf.set(signature, entry);
  return entry;
}

// Keys that contain NUL can join to another key set's signature: the hit is checked key by key.
function sameKeys(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A strong ETag of a record's representation: it changes when and only when the JSON `data` does. */
export function etagOf(data: unknown): string {
  return etagOfCanonical(canonicalJson(data));
}

/** `etagOf` of the value whose canonical JSON this is (a stored document: src/products/products.documents.ts). */
export function etagOfCanonical(json: string): string {
  return `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
}
