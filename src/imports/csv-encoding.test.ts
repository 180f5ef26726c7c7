import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { csvFixture, csvRow, type JobRow, productByHandle } from '../../test/support/csv.fixtures.js';
import { runStoreJobs, runStoreJobsResumed, storedUploads } from '../../test/support/jobs.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const METAFIELD = 'Temporada (product.metafields.custom.estación)';

/**
 * Shopify's partner sample (a real export) as a Spanish store would have it: accents in a title, a description
 * with Windows-1252's own characters (€, curly quotes, en dash: not in ISO-8859-1), a tag, a metafield column whose
 * header has an accent. Text; encode it as each test needs.
 */
function spanishExport(): string {
  const [header, ...rows] = parse(csvFixture('shopify-partners-apparel.csv'), { relax_column_count: true }) as string[][];
  const first = rows.findIndex((row) => row[0] === 'ocean-blue-shirt');
  rows[first][1] = 'Boîte de invierno';
  rows[first][2] = 'Café “de olla” – 10 € el año, niño';
  rows[first][5] = 'invierno, Niñas';
  const lines = [[...header, METAFIELD], ...rows.map((row, i) => [...row, i === first ? 'Otoño' : ''])];
  return `${lines.map((row) => csvRow(row)).join('\r\n')}\r\n`;
}

async function importBytes(store: TestStore, body: Buffer, contentType = 'text/csv') {
  const posted = await t.call(store, 'POST', '/imports?resource=products', body, { 'content-type': contentType });
  if (posted.status !== 202) return { posted, job: null, errors: [], warnings: [] };
  await runStoreJobs(t, store);
  const id = posted.body.data.id;
  const job = (await t.call(store, 'GET', `/jobs/${id}`)).body.data;
  const rows: JobRow[] = (await t.call(store, 'GET', `/jobs/${id}/errors?limit=100`)).body.data;
  // warning rows (a SKU the file does not give, made up) are the job's, whatever the encoding
  const errors = rows.filter((row) => row.level === 'error');
  const warnings = rows.filter((row) => row.level === 'warning');
  return { posted, job, errors, warnings };
}

/** Every product of the store as the API gives it, as one JSON text (to look for a character anywhere). */
const storedText = async (store: TestStore) => JSON.stringify((await t.call(store, 'GET', '/products?limit=100')).body.data);

async function expectSpanishProduct(store: TestStore) {
  expect(await productByHandle(t, store, 'ocean-blue-shirt')).toMatchObject({
    title: 'Boîte de invierno',
    description: 'Café “de olla” – 10 € el año, niño',
    tags: ['invierno', 'Niñas'],
    customFields: { [METAFIELD]: 'Otoño' },
  });
  expect(await storedText(store)).not.toContain('\uFFFD');
}

describe('CSV encodings', () => {
  it('reads a Windows-1252 file (not valid UTF-8) as Windows-1252, says so on the job, and imports every value exact', async () => {
    const store = await t.newStore();
    const text = spanishExport();
    const { posted, job, errors, warnings } = await importBytes(store, iconv.encode(text, 'windows-1252'));
    expect(posted.body.data.encoding).toBe('windows-1252');
    expect(errors).toEqual([]);
    expect(job.warnings).toBe(warnings.length);
    expect(job).toMatchObject({ status: 'succeeded', encoding: 'windows-1252', failed: 0, created: 20 });
    await expectSpanishProduct(store);
    // the same file saved as UTF-8 is read as UTF-8
    const utf8 = await t.newStore();
    const same = await importBytes(utf8, Buffer.from(text));
    expect(same.job).toMatchObject({ status: 'succeeded', encoding: 'utf-8', failed: 0, created: 20 });
    expect(same.warnings).toEqual(warnings);
    await expectSpanishProduct(utf8);
  });

  it('reads the charset a content-type names, whatever the bytes look like', async () => {
    const store = await t.newStore();
    const { job } = await importBytes(store, iconv.encode(spanishExport(), 'windows-1252'), 'text/csv; charset=windows-1252');
    expect(job).toMatchObject({ status: 'succeeded', encoding: 'windows-1252', failed: 0 });
    await expectSpanishProduct(store);
    // ISO-8859-1: é and ñ read; a byte of 0x80–0x9F (a control character there, € in Windows-1252) is its line's error
    const latin = await t.newStore();
    const rows = [
      ['Handle', 'Title', 'Variant Price'],
      ['cafe', 'Café niño', '1'],
      ['euro', 'Ten \u0080', '2'],
    ];
    const named = await importBytes(
      latin,
      Buffer.from(rows.map((row) => csvRow(row)).join('\n'), 'latin1'),
      'text/csv;charset="ISO-8859-1"',
    );
    expect(named.job).toMatchObject({ encoding: 'iso-8859-1', created: 1, failed: 1 });
    expect(named.errors).toMatchObject([{ line: 3, column: 'Title', code: 'VALIDATION_ERROR' }]);
    expect((await productByHandle(t, latin, 'cafe')).title).toBe('Café niño');
  });

  it('makes a line with bytes that cannot be read an error of that line: U+FFFD never reaches the store', async () => {
    const store = await t.newStore();
    const head = Buffer.from('Handle,Title,Body (HTML),Variant Price\nfine,Fine,Ça va,1\nbroken,Bo');
    // 0xEE then an ASCII letter: not UTF-8 (a Windows-1252 î inside an otherwise UTF-8 file)
    const file = Buffer.concat([head, Buffer.from([0xee]), Buffer.from('te,ok,2\nafter,After,ok,3\n')]);
    const { job, errors } = await importBytes(store, file, 'text/csv; charset=utf-8');
    expect(job).toMatchObject({ status: 'succeeded', encoding: 'utf-8', created: 2, failed: 1 });
    expect(errors).toMatchObject([{ line: 3, column: 'Title', code: 'VALIDATION_ERROR' }]);
    expect(errors[0].message).toContain('not valid UTF-8');
    expect(await storedText(store)).not.toContain('\uFFFD');
    expect((await productByHandle(t, store, 'fine')).description).toBe('Ça va');
    // Windows-1252 leaves five bytes undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D): their line is refused too
    const cp = await t.newStore();
    const undefinedByte = Buffer.concat([
      Buffer.from('Handle,Title,Variant Price\na,Caf\xe9,1\nb,X', 'latin1'),
      Buffer.from([0x81]),
      Buffer.from(',2\n'),
    ]);
    const read = await importBytes(cp, undefinedByte);
    expect(read.job).toMatchObject({ encoding: 'windows-1252', created: 1, failed: 1 });
    expect(read.errors).toMatchObject([{ line: 3, column: 'Title' }]);
    expect((await productByHandle(t, cp, 'a')).title).toBe('Café');
  });

  it('refuses a charset it cannot read with a 415 before reading the body, keeping nothing', async () => {
    const store = await t.newStore();
    const posted = await t.call(store, 'POST', '/imports?resource=products', 'Handle,Title\na,A\n', {
      'content-type': 'text/csv; charset=shift_jis',
    });
    const error = expectError(posted, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(error.message).toContain('utf-8, windows-1252 or iso-8859-1');
    expect(await storedUploads(t, store.id)).toEqual([]);
  });

  it('resumes a Windows-1252 job at the byte it stopped at', async () => {
    const store = await t.newStore();
    const rows = [['Handle', 'Title', 'Variant Price'], ...Array.from({ length: 150 }, (_, i) => [`p-${i}`, `Niño ${i} €`, '1'])];
    const posted = await t.call(
      store,
      'POST',
      '/imports?resource=products',
      iconv.encode(rows.map((row) => csvRow(row)).join('\n'), 'win1252'),
      {
        'content-type': 'text/csv',
      },
    );
    await runStoreJobsResumed(t, store);
    expect((await t.call(store, 'GET', `/jobs/${posted.body.data.id}`)).body.data).toMatchObject({ created: 150, failed: 0 });
    expect((await productByHandle(t, store, 'p-149')).title).toBe('Niño 149 €');
  });

  it('refuses an NDJSON line that is not valid UTF-8 as an error of its line', async () => {
    const store = await t.newStore();
    const body = Buffer.concat([
      Buffer.from('{"handle":"cafe","title":"Caf'),
      Buffer.from([0xe9]),
      Buffer.from('","price":1}\n{"handle":"te","title":"Té","price":2}\n'),
    ]);
    const posted = await t.call(store, 'POST', '/imports?resource=products', body, { 'content-type': 'application/x-ndjson' });
    await runStoreJobs(t, store);
    const job = (await t.call(store, 'GET', `/jobs/${posted.body.data.id}`)).body.data;
    expect(job).toMatchObject({ encoding: 'utf-8', created: 1, failed: 1 });
    const errors = (await t.call(store, 'GET', `/jobs/${posted.body.data.id}/errors`)).body.data;
    expect(errors).toMatchObject([{ line: 1, code: 'VALIDATION_ERROR' }]);
    expect(await storedText(store)).not.toContain('\uFFFD');
  });
});
