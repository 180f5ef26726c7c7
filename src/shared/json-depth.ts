import { invalidField } from '../errors.js';

/**
 * The deepest a JSON body (or an import line) may nest: objects and arrays within each other, the outermost
 * counting as 1. Everything after parsing walks the body recursively somewhere (hashing it for an
 * Idempotency-Key, validation, serialization), so a body 5,000 levels deep must be refused before any of it.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/**
 * Whether JSON text nests deeper than `max`, found by one pass over its characters without parsing it
 * (brackets inside strings do not count). Text that is not JSON is left to the parser to refuse.
 */
export function jsonNestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === BACKSLASH) i++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) inString = true;
    else if (OPENERS.has(char)) {
      if (++depth > max) return true;
    } else if (CLOSERS.has(char)) depth--;
  }
  return false;
}

/** The 400 for such a body (an import line is a body too: the one its resource's POST takes). */
export const tooDeep = () => invalidField('body', `must not nest objects and arrays deeper than ${MAX_JSON_DEPTH} levels`, 'body');
