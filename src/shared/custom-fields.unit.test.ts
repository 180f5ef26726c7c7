import { describe, expect, it } from 'vitest';
import { customFieldsDetails, customFieldsOutput, mergeCustomFields, newCustomFields } from './custom-fields.js';

describe('custom fields', () => {
  it('merge: a value sets its key, null removes it, keys not named stay', () => {
    expect(mergeCustomFields({ a: 1, b: 'x', c: true }, { b: null, c: false, d: 'new', gone: null })).toEqual({ a: 1, c: false, d: 'new' });
    expect(mergeCustomFields({ a: 1 }, undefined)).toEqual({ a: 1 });
  });

  it('keeps `__proto__` a key, never the prototype', () => {
    const patch = JSON.parse('{"__proto__": "text", "constructor": 1}');
    const merged = mergeCustomFields({}, patch);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.keys(merged).sort()).toEqual(['__proto__', 'constructor']);
    expect(JSON.stringify(customFieldsOutput(merged))).toBe('{"__proto__":"text","constructor":1}');
  });

  it('a create drops null values', () => {
    expect(newCustomFields({ a: null, b: 0, c: '' })).toEqual({ b: 0, c: '' });
    expect(newCustomFields(undefined)).toEqual({});
  });

  it('output: keys in sorted order, {} for none', () => {
    expect(Object.keys(customFieldsOutput({ bb: 1, a: 2, 'a.b': 3 }))).toEqual(['a', 'a.b', 'bb']);
    expect(customFieldsOutput(null)).toEqual({});
  });

  it('details: at most 200 keys, finite numbers, 64 KB as JSON', () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    expect(customFieldsDetails(keys(200))).toEqual([]);
    expect(customFieldsDetails(keys(201)).map((d) => d.field)).toEqual(['customFields']);
    expect(customFieldsDetails({ a: Number.POSITIVE_INFINITY }, 'variants[1].customFields').map((d) => d.field)).toEqual([
      'variants[1].customFields.a',
    ]);
    expect(customFieldsDetails({ a: 'x'.repeat(65_000) })).toEqual([]);
    // bytes, not characters: 22,000 three-byte characters are 66,000 bytes
    expect(customFieldsDetails({ a: '€'.repeat(22_000) }).map((d) => d.field)).toEqual(['customFields']);
  });
});
