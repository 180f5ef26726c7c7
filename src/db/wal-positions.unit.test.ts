import { describe, expect, it } from 'vitest';
import { lagBehind, lsnText, lsnValue } from './wal-positions.js';

describe('WAL positions', () => {
  it('reads X/Y as one 64-bit number and writes it back', () => {
    expect(lsnValue('0/3000148')).toBe(0x3000148n);
    expect(lsnValue('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(lsnValue('1/0')).toBeGreaterThan(lsnValue('0/FFFFFFFF') ?? Number.POSITIVE_INFINITY);
    expect(lsnText(lsnValue('16/B374D848') ?? 0n)).toBe('16/B374D848');
    for (const text of ['', '0', '0/', '/1', 'G/1', '0/123456789', '1/2/3', ' 0/1']) expect(lsnValue(text)).toBeUndefined();
  });

  it("measures a replica's lag from when the primary was first at a position it has not replayed", () => {
    const samples = [
      { lsn: 100n, at: 1_000 },
      { lsn: 200n, at: 1_250 },
      { lsn: 300n, at: 1_500 },
    ];
    expect(lagBehind(samples, 300n, 2_000)).toBe(0);
    expect(lagBehind(samples, 250n, 2_000)).toBe(500);
    expect(lagBehind(samples, 150n, 2_000)).toBe(750);
    // behind the oldest sample: at least its age
    expect(lagBehind(samples, 50n, 2_000)).toBe(1_000);
    expect(lagBehind([], 0n, 2_000)).toBe(0);
  });
});
