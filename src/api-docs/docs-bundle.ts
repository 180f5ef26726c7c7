import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

/**
 * Scalar's browser bundle, served by us (never from a CDN). @scalar/fastify-api-reference ships it only as a
 * 4.3 MB string literal inside its own module; importing that module to serve it costs the process ~55 MB of
 * RSS for good (its source and the string, two bytes per character, plus the OpenAPI parser it pulls in).
 * Reading the literal out of the file as bytes costs a few MB, off the JS heap: the bundle (UTF-8) and its
 * gzip. `docs-bundle.unit.test.ts` checks the result against what the plugin itself serves, so an upgrade
 * that changes the file's layout fails the tests, not the page.
 */

const MARKER = Buffer.from('var standalone_default = "');
const BACKSLASH = 0x5c;
const QUOTE = 0x22;
// \n, \r, \t, \b, \f, \v, \0 by the byte after the backslash
const SIMPLE_ESCAPES = new Map([...'nrtbfv0'].map((letter, index) => [letter.charCodeAt(0), '\n\r\t\b\f\v\0'.charCodeAt(index)]));

export interface ScalarBundle {
  js: Buffer;
  gzip: Buffer;
  /** a short content hash, for an immutable URL */
  version: string;
}

const gzipped = promisify(gzip);

/** The UTF-8 bytes of the double-quoted JS string literal starting at `start` (just after its quote). */
export function unescapeStringLiteral(source: Buffer, start: number): Buffer {
  const out = Buffer.allocUnsafe(source.length - start);
  let length = 0;
  const put = (text: string) => {
    length += out.write(text, length, 'utf8');
  };
  let quote = -1;
  for (let at = start; ; at++) {
    // Runs without escapes are copied whole: this loop touches only the escapes and the closing quote.
    if (quote < at) quote = source.indexOf(QUOTE, at);
    if (quote < 0) throw new Error('unterminated string literal');
    const backslash = source.indexOf(BACKSLASH, at);
    const special = backslash >= 0 && backslash < quote ? backslash : quote;
    length += source.copy(out, length, at, special);
    if (special === quote) return out.subarray(0, length);
    at = special + 1;
    const next = source[at];
    const simple = SIMPLE_ESCAPES.get(next);
    if (simple !== undefined) out[length++] = simple;
    else if (next === 0x78) {
      put(String.fromCharCode(Number.parseInt(source.toString('latin1', at + 1, at + 3), 16)));
      at += 2;
    } else if (next === 0x75) {
      at = unicodeEscape(source, at, put);
    } else if (next === 0x0d) {
      if (source[at + 1] === 0x0a) at++; // a line continuation: nothing
    } else if (next !== 0x0a) out[length++] = next; // \" \\ \` \/ and any other character stand for themselves
  }
}

/** `\uXXXX` (a surrogate pair as two of them) or `\u{X…}`; `at` is on the `u`; returns the last byte read. */
function unicodeEscape(source: Buffer, at: number, put: (text: string) => void): number {
  if (source[at + 1] === 0x7b) {
    const close = source.indexOf(0x7d, at);
    put(String.fromCodePoint(Number.parseInt(source.toString('latin1', at + 2, close), 16)));
    return close;
  }
  const unit = (position: number) => Number.parseInt(source.toString('latin1', position, position + 4), 16);
  const high = unit(at + 1);
  const pairs = high >= 0xd800 && high <= 0xdbff && source[at + 5] === BACKSLASH && source[at + 6] === 0x75;
  if (pairs) {
    put(String.fromCharCode(high, unit(at + 7)));
    return at + 10;
  }
  put(String.fromCharCode(high));
  return at + 4;
}

export async function loadScalarBundle(): Promise<ScalarBundle> {
  const file = await readFile(createRequire(import.meta.url).resolve('@scalar/fastify-api-reference'));
  const marker = file.indexOf(MARKER);
  if (marker < 0) throw new Error('@scalar/fastify-api-reference: its bundled standalone.js was not found');
  const js = unescapeStringLiteral(file, marker + MARKER.length);
  return { js, gzip: await gzipped(js), version: createHash('sha256').update(js).digest('hex').slice(0, 12) };
}
