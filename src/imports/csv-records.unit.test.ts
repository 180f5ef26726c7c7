import { describe, expect, it, vi } from 'vitest';
import { csvRecordReader } from './csv.js';

/**
 * The CSV record reader (docs/decisions.md, "CSV records without csv-parse's stream"): records with the
 * position of their end, read in slices, and no Error made for a record whose length differs from the
 * header's (csv-parse made one per `,,` row, 2 KB and a stack trace each, before letting it through).
 */

const header = Array.from({ length: 50 }, (_, i) => `Column ${i}`).join(',');

describe('csvRecordReader', () => {
  it('reads records of any length with the byte position of their end, across chunks and slices', () => {
    const reader = csvRecordReader(',', true, 1_000_000);
    const text = `\uFEFFa,b,c\n"multi\nline",2\n,,\n${'x'.repeat(40_000)}\nlast`;
    const bytes = Buffer.from(text);
    const records = [...reader.write(bytes.subarray(0, 7)), ...reader.write(bytes.subarray(7)), ...reader.end()];
    expect(records.map((parsed) => parsed.record)).toEqual([
      ['a', 'b', 'c'],
      ['multi\nline', '2'],
      ['', '', ''],
      ['x'.repeat(40_000)],
      ['last'],
    ]);
    const ends = records.map((parsed) => parsed.bytes);
    expect(ends.at(-1)).toBe(bytes.length);
    // each record but the last ends just past its newline: the next record starts there
    for (const end of ends.slice(0, -1)) expect(bytes[end - 1]).toBe(0x0a);
  });

  it('makes no Error for rows shorter than the header (10,000 `,,` rows under 50 columns)', () => {
    const made = vi.spyOn(Error, 'captureStackTrace');
    try {
      const reader = csvRecordReader(',', true, 1_000_000);
      const count = [...reader.write(Buffer.from(`${header}\n${',,\n'.repeat(10_000)}`)), ...reader.end()].length;
      expect(count).toBe(10_001);
      expect(made).not.toHaveBeenCalled();
    } finally {
      made.mockRestore();
    }
  });

  it('throws the syntax error after the records before it', () => {
    const reader = csvRecordReader(',', true, 20);
    const read: string[][] = [];
    expect(() => {
      for (const parsed of reader.write(Buffer.from(`a,b\n"${'y'.repeat(50)}\n`))) read.push(parsed.record);
      for (const parsed of reader.end()) read.push(parsed.record);
    }).toThrow();
    expect(read).toEqual([['a', 'b']]);
  });
});
