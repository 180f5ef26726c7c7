import type { ErrorDetail } from '../errors.js';

/**
 * Strings PostgreSQL cannot store as sent: U+0000 is refused by `text` and `jsonb` alike, and a lone
 * UTF-16 surrogate (JSON allows `"\ud800"`) becomes U+FFFD in `text` and an error in `jsonb`. Every
 * request string is checked here once, so no route reaches the database with one.
 */

// With the `u` flag a surrogate half matches only when it is unpaired.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const NUL = '\u0000';

/** The most details one request reports: a body full of bad strings must not become a huge answer. */
export const MAX_TEXT_DETAILS = 100;

export function textProblem(value: string): string | null {
  if (value.includes(NUL)) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(value)) return 'must be valid Unicode text (it holds a lone surrogate)';
  return null;
}

/**
 * Keys that name JavaScript's object machinery. Refused as property names anywhere in a body, query or
 * import line (CONTRACT §10.2): an assignment of `__proto__` sets the prototype instead of a key, so a record
 * holding one cannot be sent back as GET showed it, and a map that takes such keys is a trap for any code
 * that later copies it with `obj[key] = …`.
 */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const forbiddenKeyMessage = (key: string) => `\`${key}\` is not allowed as a key`;
const FORBIDDEN_MESSAGES: ReadonlySet<string> = new Set([...FORBIDDEN_KEYS].map(forbiddenKeyMessage));

/**
 * The message of a 400 whose details name a forbidden key: it says so itself (a client reading only the
 * message must not be left with "validation failed", or before, "The body is not valid JSON").
 */
export const forbiddenKeyMessageOf = (details: readonly ErrorDetail[]): string | undefined =>
  details.find((detail) => FORBIDDEN_MESSAGES.has(detail.message))?.message;

/**
 * The message for a name that would become such a key (an option's name becomes a key of every variant's
 * `attributes`), null when it is allowed.
 */
export const forbiddenKeyProblem = (name: string): string | null => (FORBIDDEN_KEYS.has(name) ? forbiddenKeyMessage(name) : null);

/** What is wrong with a property name: text PostgreSQL cannot store, or a forbidden key; null when nothing. */
function keyProblem(key: string, where: ErrorDetail['in']): string | null {
  // Header names are the HTTP client's, not data the API stores: only their text is checked.
  if (where !== 'header' && FORBIDDEN_KEYS.has(key)) return forbiddenKeyMessage(key);
  const problem = textProblem(key);
  return problem && `property name ${problem}`;
}

/** A field name fit to echo in a detail: NUL and lone surrogates spelled out. */
export function printableName(name: string): string {
  return name.replaceAll(NUL, '\\u0000').replace(/[\uD800-\uDFFF]/gu, (half) => `\\u${half.charCodeAt(0).toString(16)}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  // Parsed JSON, or a query/params object (whose prototype is itself a null-prototype object).
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
}

export const childPath = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${printableName(key)}` : printableName(key);

/**
 * One detail per string (value or property name) that PostgreSQL could not store, and per forbidden key
 * (`__proto__`, `constructor`, `prototype`), anywhere in a parsed JSON body, query or params object. Iterative: a deeply nested body cannot overflow the stack.
 */
export function textDetails(root: unknown, where: ErrorDetail['in'], rootName: string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const pending: [unknown, string][] = [[root, '']];
  while (pending.length > 0 && details.length < MAX_TEXT_DETAILS) {
    const [value, path] = pending.pop() as [unknown, string];
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) details.push({ field: path || rootName, in: where, message: problem });
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) pending.push([value[index], childPath(path, index)]);
    } else if (isPlainObject(value)) {
      const children: [unknown, string][] = [];
      for (const key of Object.keys(value)) {
        const problem = keyProblem(key, where);
        if (problem) details.push({ field: childPath(path, key), in: where, message: problem });
        else children.push([value[key], childPath(path, key)]);
      }
      for (let index = children.length - 1; index >= 0; index--) pending.push(children[index]);
    }
  }
  return details.slice(0, MAX_TEXT_DETAILS);
}

export { isPlainObject };
