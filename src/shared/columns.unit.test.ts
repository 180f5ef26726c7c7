import { describe, expect, it } from 'vitest';
import { suppliedColumns } from './columns.js';

describe('suppliedColumns', () => {
  it('leaves out absent fields and keeps null, 0, false and empty strings as values', () => {
    expect(suppliedColumns({ a: undefined, b: null, c: 0, d: false, e: '' })).toEqual({ b: null, c: 0, d: false, e: '' });
    expect(Object.keys(suppliedColumns({ a: undefined }))).toEqual([]);
  });
});
