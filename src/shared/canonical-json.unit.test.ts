import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';

/**
 * The definition, written plainly (the previous implementation): sorted keys (as Array#sort orders them,
 * integer-like keys included: an object would put those first), `undefined` properties left out.
 */
function reference(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return reference((value as { toJSON(): unknown }).toJSON());
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : reference(item))).join(',')}]`;
  const object = value as Record<string, unknown>;
  const entries = Object.keys(object)
    .sort()
    .filter((key) => object[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${reference(object[key])}`);
  return `{${entries.join(',')}}`;
}

const withUndefined = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, undefined, true, false, 0, -1.5, '', 'a"b\\c\u0000\u2028'),
    fc.string(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('canonicalJson', () => {
  it("is the definition's text for any JSON-like value (fast-check)", () => {
    fc.assert(
      fc.property(withUndefined, (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps key sets apart whose joined signatures collide (keys containing NUL)', () => {
    const first = { 'a\u0000b': 1, c: 2 };
    const second = { a: 1, 'b\u0000c': 2 };
    expect(canonicalJson(first)).toBe(reference(first));
    expect(canonicalJson(second)).toBe(reference(second));
    expect(canonicalJson(first)).toBe(reference(first));
  });

  it('gives the same text for the same key set built in another order, and for repeated shapes', () => {
    const a = { z: 1, a: { y: [1, { q: 2, p: undefined }], x: 'x' } };
    const b = { a: { x: 'x', y: [1, { q: 2 }] }, z: 1 };
    for (let i = 0; i < 3; i++) expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"a":{"x":"x","y":[1,{"q":2}]},"z":1}');
  });
});

describe('canonicalJson as JSON', () => {
  it('parses back to the value JSON.stringify gives', () => {
    fc.assert(
      fc.property(withUndefined, (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value) ?? 'null'));
      }),
      { numRuns: 1000 },
    );
  });
});
