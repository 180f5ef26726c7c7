import { emptyRecord, LineBuilder, listCell, missingOf, putKey } from '../lines.js';
import { NUMBER_QUOTING } from '../spreadsheet-quote.js';
import type { CsvHeader, CsvLayout, CsvRecord, LayoutLine } from '../types.js';
import { type CustomerTarget, SHOPIFY_CUSTOMER_FIELDS, SHOPIFY_CUSTOMER_REQUIRED } from './customers-columns.js';

/**
 * Shopify's customer CSV, both header generations (customers-columns.ts): one customer per record, the
 * import line the body POST /customers takes without a password. Its key (`userName`) is the `Username`
 * column when the file has one (Storefront's own export), else the email, else the phone.
 */

interface FieldColumn {
  index: number;
  header: string;
  target: CustomerTarget;
}

interface CustomerFile {
  fields: FieldColumn[];
  /** every other column: a customFields column */
  custom: { index: number; header: string }[];
}

function resolve(header: CsvHeader): CustomerFile {
  const fields: FieldColumn[] = [];
  const taken = new Set<number>();
  for (const column of SHOPIFY_CUSTOMER_FIELDS) {
    const name = header.find(...column.names);
    const index = name === undefined ? undefined : header.index(name);
    if (name === undefined || index === undefined) continue;
    fields.push({ index, header: name, target: column.target });
    taken.add(index);
  }
  const custom = header.names
    .map((name, index) => ({ index, header: name }))
    .filter(({ index, header: name }) => !taken.has(index) && name.trim() !== '' && header.index(name) === index);
  return { fields, custom };
}

const cellAt = (record: CsvRecord, index: number) => (record.cells[index] ?? '').trim();

function buildCustomer(file: CustomerFile, record: CsvRecord): LayoutLine {
  const line = new LineBuilder(record);
  const values = new Map<CustomerTarget, { cell: string; header: string }>();
  for (const column of file.fields) {
    const cell = cellAt(record, column.index);
    if (cell !== '') values.set(column.target, { cell, header: column.header });
  }
  const key = values.get('userName') ?? values.get('email') ?? values.get('phoneNumber');
  line.set('userName', key?.cell, record.line, key?.header);
  const address: Record<string, string> = {};
  for (const [target, { cell, header }] of values) {
    if (target === 'userName') continue;
    if (target.startsWith('address.')) {
      const field = target.slice('address.'.length);
      address[field] = cell;
      line.source(`address.${field}`, record.line, header);
    } else line.set(target, target === 'tags' ? listCell(cell) : cell, record.line, header);
  }
  if (Object.keys(address).length > 0) line.value.address = address;
  const customFields: Record<string, string> = {};
  for (const column of file.custom) {
    const cell = cellAt(record, column.index);
    if (cell === '') continue;
    putKey(customFields, column.header, cell);
    line.source(`customFields.${column.header}`, record.line, column.header);
  }
  if (Object.keys(customFields).length > 0) line.value.customFields = customFields;
  return line.done(record.line);
}

export const shopifyCustomers: CsvLayout = {
  name: 'shopify-customers',
  // Shopify's export puts an apostrophe before zips, phones and ids too (src/platforms/spreadsheet-quote.ts)
  quoting: NUMBER_QUOTING,
  format: 'shopify',
  resource: 'customers',
  missingColumns: (header) => missingOf(header, SHOPIFY_CUSTOMER_REQUIRED),
  open(header) {
    const file = resolve(header);
    return {
      push: (record) => (emptyRecord(record) ? [] : [buildCustomer(file, record)]),
      end: () => [],
    };
  },
};
