import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvRows } from './csv-rows.js';

// cells with the characters that decide quoting, among others
const cellText = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', ',', '"', '\r', '\n', ';', "'", 'é', '=', '') });
const rows = fc.array(fc.array(cellText, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 });
const sameWidth = rows.map((all) => all.map((row) => [...row, ...Array(6 - row.length).fill('')]));

describe('csvRows', () => {
  it('writes what csv-stringify writes for the same string cells', () => {
    fc.assert(
      fc.property(rows, (generated) => {
        expect(csvRows(generated)).toBe(stringify(generated));
      }),
      { numRuns: 500 },
    );
  });

  it('reads back through csv-parse as the same cells', () => {
    fc.assert(
      fc.property(sameWidth, (generated) => {
        expect(parse(csvRows(generated), { relax_column_count: false })).toEqual(generated);
      }),
      { numRuns: 500 },
    );
  });

  it('quotes only the cells that need it', () => {
    expect(csvRows([['plain', 'a,b', 'say "hi"', 'two\nlines', 'cr\r', '']])).toBe('plain,"a,b","say ""hi""","two\nlines","cr\r",\n');
  });
});
