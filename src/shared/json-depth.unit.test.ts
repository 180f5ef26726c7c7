import { describe, expect, it } from 'vitest';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from './json-depth.js';

const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

describe('jsonNestsDeeperThan', () => {
  it('counts objects and arrays within each other, the outermost as 1', () => {
    expect(jsonNestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonNestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonNestsDeeperThan('[[[1]]]', 2)).toBe(true);
    expect(jsonNestsDeeperThan('[[1],[2],[3]]', 2)).toBe(false);
    expect(jsonNestsDeeperThan('1', 0)).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(jsonNestsDeeperThan(JSON.stringify({ a: '[[[[{{{{' }), 1)).toBe(false);
    expect(jsonNestsDeeperThan(JSON.stringify({ a: 'say \\"[[[[' }), 1)).toBe(false);
    expect(jsonNestsDeeperThan(JSON.stringify({ a: '\\', b: [[1]] }), 2)).toBe(true);
  });

  it('scans 5,000 levels without recursion', () => {
    expect(jsonNestsDeeperThan('['.repeat(100_000))).toBe(true);
  });
});
