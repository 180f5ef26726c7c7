import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathsWhere, REPO_ROOT, sourceFiles } from '../test/support/source-files.js';

/**
 * The server never asks ICU for locale data outside an error path. The first `toLocaleString`, `Intl.*` or
 * `localeCompare` of a process pages in part of ICU's data from the node binary, and those pages stay in its RSS
 * for good: one `toLocaleString('en')` in a schema built at start cost every server 4.5 MB (docs/decisions.md,
 * "No locale data in the server"). Sorting for output uses code-unit order, which is also the same on every ICU version.
 * `localeCompare` stays where it orders the details of a 400 (an error path; numeric order of `items[10]`).
 */
const LOCALE_CALLS =
  /\.(toLocaleString|toLocaleDateString|toLocaleTimeString|toLocaleUpperCase|toLocaleLowerCase|localeCompare)\(|\bIntl\./;
const ERROR_PATHS = new Set(['src/orders/stock.ts', 'src/products/variant-entries.ts']);

function filesAskingForLocaleData(files: { path: string; text: string }[]): string[] {
  return pathsWhere(files, ({ path, text }) => !ERROR_PATHS.has(path) && LOCALE_CALLS.test(text));
}

describe('locale data', () => {
  it('finds the calls that load ICU data', () => {
    const found = filesAskingForLocaleData([
      { path: 'src/orders/orders.schema.ts', text: "const note = 'at most ' + maxLength.toLocaleString('en');" },
      { path: 'src/api-docs/docs.ts', text: 'names.sort((a, b) => a.localeCompare(b))' },
      { path: 'src/shared/dates.ts', text: "new Intl.DateTimeFormat('en-US')" },
      { path: 'src/orders/stock.ts', text: "a.field.localeCompare(b.field, 'en', { numeric: true })" },
      { path: 'src/shared/handles.ts', text: "title.normalize('NFKD').toLowerCase()" },
    ]);
    expect(found).toEqual(['src/api-docs/docs.ts', 'src/orders/orders.schema.ts', 'src/shared/dates.ts']);
  });

  it('keeps src/ from loading locale data outside its error paths', () => {
    const files = sourceFiles(join(REPO_ROOT, 'src'));
    expect(filesAskingForLocaleData(files), 'files calling toLocale*, localeCompare or Intl').toEqual([]);
  });
});
