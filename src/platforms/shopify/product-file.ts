import type { CsvHeader, CsvRecord } from '../types.js';
import { customFieldKeyOf, marketPriceColumn, type ShopifyTarget, shopifyProductColumn, unlistedColumnLevel } from './product-columns.js';

/** A column of the file, resolved once per file: its header as written, its position, where it lands. */
export interface FileColumn {
  index: number;
  header: string;
  /** the customFields key its cells are kept under (the current generation's name: customFieldKeyOf) */
  key: string;
  target: ShopifyTarget;
  level: 'product' | 'variant' | 'image';
  option?: 1 | 2 | 3;
}

/** The file's columns by target (the first column of a target wins), and its customFields columns. */
export interface ShopifyFile {
  header: CsvHeader;
  by: Partial<Record<ShopifyTarget, FileColumn>>;
  options: { name?: FileColumn; value?: FileColumn }[];
  statusColumns: FileColumn[];
  custom: FileColumn[];
  /** the market price columns (`Price / <Market>`, `Compare-at price / <Market>`), by market (lower case) */
  markets: Map<string, { market: string; price?: FileColumn; compareAt?: FileColumn }>;
}

/** Resolves the header row once per file: which column is which. */
export function resolve(header: CsvHeader): ShopifyFile {
  const file: ShopifyFile = { header, by: {}, options: [{}, {}, {}], statusColumns: [], custom: [], markets: new Map() };
  header.names.forEach((name, index) => {
    if (name.trim() === '' || header.index(name) !== index) return;
    const entry = shopifyProductColumn(name);
    const market = entry ? null : marketPriceColumn(name);
    if (market) {
      const slot = file.markets.get(market.market.toLowerCase()) ?? { market: market.market };
      slot[market.kind] ??= { index, header: name, key: name, target: 'customFields', level: 'variant' };
      file.markets.set(market.market.toLowerCase(), slot);
      return;
    }
    const column: FileColumn = entry
      ? { index, header: name, key: customFieldKeyOf(name), target: entry.target, level: entry.level, option: entry.option }
      : { index, header: name, key: name, target: 'customFields', level: unlistedColumnLevel(name) };
    if (column.target === 'optionName' || column.target === 'optionValue') {
      const slot = file.options[(column.option ?? 1) - 1];
      slot[column.target === 'optionName' ? 'name' : 'value'] = column;
    } else if (column.target === 'status') file.statusColumns.push(column);
    else if (column.target === 'customFields') file.custom.push(column);
    else file.by[column.target] ??= column;
  });
  return file;
}

/** A record's cell in a column of the file: trimmed, '' when the file lacks the column. */
export const cellOf = (record: CsvRecord, column: FileColumn | undefined) => (column ? (record.cells[column.index] ?? '').trim() : '');
