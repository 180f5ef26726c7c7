import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { canonicalJson, etagOf } from '../shared/canonical-json.js';
import { Envelope } from '../shared/common.schema.js';
import { carriesOneRecord, ifMatchAccepts, noneMatch } from './etag.js';

describe('canonicalJson', () => {
  it('is JSON.stringify with sorted keys', () => {
    const value = { b: [1, 'two', null, undefined, { z: true, a: 1.5 }], a: { skipped: undefined, at: new Date(0) }, c: 'x"y' };
    expect(canonicalJson(value)).toBe('{"a":{"at":"1970-01-01T00:00:00.000Z"},"b":[1,"two",null,null,{"a":1.5,"z":true}],"c":"x\\"y"}');
    expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
  });
});

describe('etagOf', () => {
  it('depends on the JSON value, not on the order a code path built the object in', () => {
    const a = { id: 'x', nested: { b: 1, a: [{ d: 1, c: 2 }] }, at: new Date('2026-01-01T00:00:00.000Z') };
    const b = { at: '2026-01-01T00:00:00.000Z', nested: { a: [{ c: 2, d: 1 }], b: 1 }, id: 'x' };
    expect(etagOf(a)).toBe(etagOf(b));
    expect(etagOf(a)).toMatch(/^"[\w-]{27}"$/);
    expect(etagOf({ ...b, nested: { a: [{ c: 2, d: 1 }], b: 2 } })).not.toBe(etagOf(b));
    expect(etagOf({ list: [1, 2] })).not.toBe(etagOf({ list: [2, 1] }));
  });
});

describe('conditional headers', () => {
  const tag = '"abc"';
  it('If-None-Match compares weakly and knows *', () => {
    expect(noneMatch('"abc"', tag)).toBe(false);
    expect(noneMatch('W/"abc"', tag)).toBe(false);
    expect(noneMatch('"x" ,  "abc"', tag)).toBe(false);
    expect(noneMatch('*', tag)).toBe(false);
    expect(noneMatch('"abd"', tag)).toBe(true);
  });
  it('If-Match compares strongly and knows *', () => {
    expect(ifMatchAccepts('"abc"', tag)).toBe(true);
    expect(ifMatchAccepts('"x", "abc"', tag)).toBe(true);
    expect(ifMatchAccepts('*', tag)).toBe(true);
    expect(ifMatchAccepts('W/"abc"', tag)).toBe(false);
    expect(ifMatchAccepts('abc', tag)).toBe(false);
  });
});

describe('carriesOneRecord', () => {
  const record = Type.Object({ id: Type.String(), name: Type.String() });
  const route = (response: object) => ({ method: 'GET', url: '/x', handler: () => undefined, schema: { response } }) as never;
  it('is true for one record, false for lists, arrays, {id} results and other shapes', () => {
    expect(carriesOneRecord(route({ 200: Envelope(record) }))).toBe(true);
    expect(carriesOneRecord(route({ 201: Envelope(record) }))).toBe(true);
    expect(carriesOneRecord(route({ 200: Envelope(Type.Array(record)) }))).toBe(false);
    expect(carriesOneRecord(route({ 200: Envelope(Type.Object({ id: Type.String() })) }))).toBe(false);
    expect(carriesOneRecord(route({ 200: Envelope(Type.Object({ accessToken: Type.String(), expiresIn: Type.Integer() })) }))).toBe(false);
    expect(carriesOneRecord(route({}))).toBe(false);
  });
});
