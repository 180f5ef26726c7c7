import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIso } from './iso.js';

describe('formatIso', () => {
  it('formats every date exactly as toISOString does', () => {
    fc.assert(
      fc.property(fc.date({ noInvalidDate: true }), (date) => {
        expect(formatIso(date)).toBe(date.toISOString());
      }),
      { numRuns: 20_000 },
    );
  });

  it('agrees at the edges: epoch, leap days, year boundaries, years below 1000 and beyond 9999', () => {
    const edges = [
      0,
      -1,
      951_782_400_000,
      4_107_456_000_000,
      -62_167_219_200_000,
      -62_167_219_200_001,
      253_402_300_799_999,
      253_402_300_800_000,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(999, 11, 31),
      Date.UTC(1900, 1, 28),
    ];
    for (const ms of edges) expect(formatIso(new Date(ms))).toBe(new Date(ms).toISOString());
  });

  it('throws on an invalid date, as toISOString does', () => {
    expect(() => formatIso(new Date(Number.NaN))).toThrow(RangeError);
  });
});
