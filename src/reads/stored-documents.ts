import { sql } from 'kysely';
import { type Db, literal, type Tx, withCommit, withTx } from '../db/index.js';
import { batchedRead } from './batched-reads.js';

/**
 * Stored documents (migrations/0022 products, 0075 customers): a record as GET returns it, as the JSON text
 * its created/updated event carries, with its ETag. Written at the end of every write that changes the record
 * (through the feed's append: src/events/record.ts, `storeDocuments`), read while the record's row is still
 * the version the document was written for (`written_by` = the row's xmin). A change made past the write
 * door (a script, a restore, a bench seed) leaves an older document that no read uses; the reader then builds
 * the record from its rows, and `rebuildDocuments` writes the missing ones.
 */

/** Where a kind's documents live: its documents table, the table of its records and the key naming a record. */
export interface DocumentTable {
  documents: 'product_documents' | 'customer_documents';
  records: 'products' | 'customers';
  key: 'product_id' | 'customer_id';
}

/** What GET sends for a record: the `data` of its envelope, and its ETag. */
export interface StoredDocument {
  etag: string;
  body: string;
}

/** A document as it is written: the record's id, its ETag and its JSON text. */
export interface DocumentRow {
  id: string;
  etag: string;
  body: string;
}

/**
 * The record's stored document, unless its row has changed since it was written (or it has none).
 *
 * Outside a transaction the reads of one store's documents made in the same turn of the event loop go to
 * PostgreSQL as one statement (batchedRead: batched-reads.ts; docs/decisions.md, "GET by id read in batches").
 * A batch is one store's, so its statement names its store as every statement does; inside a transaction
 * the read is the transaction's own.
 */
export function storedDocument(db: Db, table: DocumentTable, storeId: string, id: string): Promise<StoredDocument | undefined> {
  if (db.isTransaction) return readDocuments(db, table, storeId, [id]).then((found) => found.get(id));
  return batchedRead(db, `${table.documents} ${storeId}`, id, (ids) => readDocuments(db, table, storeId, ids));
}

/** The current documents of the store's records among `ids`, by id. */
async function readDocuments(db: Db, table: DocumentTable, storeId: string, ids: readonly string[]) {
  const { documents, records, key } = names(table);
  const { rows } = await sql<StoredDocument & { id: string }>`SELECT d.${key} AS id, d.etag, d.body FROM ${documents} d
    JOIN ${records} r ON r.store_id = d.store_id AND r.id = d.${key} AND r.xmin = d.written_by
    WHERE d.store_id = ${storeId} AND d.${key} = ANY(${[...ids]}::text[])`.execute(db);
  return new Map(rows.map(({ id, etag, body }) => [id, { etag, body }]));
}

/**
 * The current document of the row of `table.records` a list is reading (that table unaliased), else null: a
 * scalar subquery for the list's select list. Not a join: a page past the first finds its ids by the sort index
 * alone (runList clears the select list for that), and a join naming the row's xmin made that walk read every
 * skipped row from the table (docs/decisions.md, "Stored documents").
 */
export function currentDocumentSql(table: DocumentTable) {
  const { documents, records, key } = names(table);
  return sql<string | null>`(SELECT d.body FROM ${documents} d
    WHERE d.store_id = ${records}.store_id AND d.${key} = ${records}.id AND d.written_by = ${records}.xmin)`;
}

/** A record's id and its current stored document (currentDocumentSql), or null when it has none. */
export interface DocumentOfRow {
  id: string;
  document: string | null;
}

/**
 * Each row's JSON text, in the rows' order: its stored document while current, else the record built from its
 * rows by `build` (one batch read for all of them). A record gone between the two reads is left out, as a read
 * a moment later would leave it out. Used by the lists and the exports: nothing of a documented record is
 * parsed, mapped or serialized.
 */
export async function documentTexts(
  rows: readonly DocumentOfRow[],
  build: (ids: string[]) => Promise<{ id: string }[]>,
): Promise<string[]> {
  const missing = rows.filter((row) => row.document === null).map((row) => row.id);
  const built = new Map((missing.length ? await build(missing) : []).map((record) => [record.id, JSON.stringify(record)]));
  return rows.flatMap((row) => row.document ?? built.get(row.id) ?? []);
}

/**
 * Upserts the documents for the records' rows as they are now (a record no longer there gets none).
 * `last`: the statement travels with the COMMIT (its values as literals).
 */
export async function upsertDocuments(trx: Tx, table: DocumentTable, storeId: string, rows: DocumentRow[], last: boolean): Promise<void> {
  const [from, join, end] = upsertParts(table);
  if (last) {
    const values = rows.map(({ id, etag, body }) => `(${[id, etag, body].map(literal).join(', ')})`).join(', ');
    await withCommit(`${from} (VALUES ${values}) ${join} ${literal(storeId)} ${end}`).execute(trx);
    return;
  }
  const [ids, etags, bodies] = [rows.map((row) => row.id), rows.map((row) => row.etag), rows.map((row) => row.body)];
  await sql`${sql.raw(from)} unnest(${ids}::text[], ${etags}::text[], ${bodies}::text[]) ${sql.raw(join)} ${storeId} ${sql.raw(end)}`.execute(
    trx,
  );
}

/**
 * Writes the documents of a write's records, one per record (an import batch may name a record twice: the
 * last is the newest), each with the ETag `etagOfBody` gives its text.
 */
export async function writeDocuments(
  trx: Tx,
  table: DocumentTable,
  storeId: string,
  documents: { id: string; body: string }[],
  { last, etagOfBody }: { last: boolean; etagOfBody: (body: string) => string },
): Promise<void> {
  const byId = new Map(documents.map((document) => [document.id, document]));
  if (byId.size === 0) return;
  const rows = [...byId.values()].map(({ id, body }) => ({ id, etag: etagOfBody(body), body }));
  await upsertDocuments(trx, table, storeId, rows, last);
}

/**
 * Writes the stored document of every record of the store that lacks a current one, `batch` records per
 * transaction, in id order (`bodies`: the records as GET returns them, as their documents' texts). Returns
 * how many it wrote.
 */
export async function rebuildDocuments(
  db: Db,
  table: DocumentTable,
  storeId: string,
  write: (trx: Tx, ids: string[]) => Promise<void>,
  batch = 500,
): Promise<number> {
  let after = '';
  let written = 0;
  for (;;) {
    const ids = await recordsWithoutDocument(db, table, storeId, after, batch);
    if (ids.length === 0) return written;
    await withTx(db, (trx) => write(trx, ids));
    written += ids.length;
    after = ids[ids.length - 1];
  }
}

/** Up to `limit` ids of the store's records after `after` (in id order) that lack a current document. */
async function recordsWithoutDocument(db: Db, table: DocumentTable, storeId: string, after: string, limit: number): Promise<string[]> {
  const { documents, records, key } = names(table);
  const { rows } = await sql<{ id: string }>`SELECT r.id FROM ${records} r
    LEFT JOIN ${documents} d ON d.store_id = r.store_id AND d.${key} = r.id AND d.written_by = r.xmin
    WHERE r.store_id = ${storeId} AND r.id > ${after} AND d.${key} IS NULL ORDER BY r.id LIMIT ${limit}`.execute(db);
  return rows.map((row) => row.id);
}

// The table's names as SQL identifiers (fixed by the type: never user input).
const names = (table: DocumentTable) => ({
  documents: sql.table(table.documents),
  records: sql.table(table.records),
  key: sql.ref(table.key),
});

// The upsert, from rows of (id, etag, body) joined to the store's records by id, in three parts around its
// source and its store (a literal when sent with the COMMIT, else parameters).
function upsertParts({ documents, records, key }: DocumentTable): [string, string, string] {
  return [
    `INSERT INTO ${documents} (store_id, ${key}, written_by, etag, body) SELECT r.store_id, r.id, r.xmin, d.etag, d.body FROM`,
    `AS d(id, etag, body) JOIN ${records} r ON r.store_id =`,
    `AND r.id = d.id ON CONFLICT (store_id, ${key}) DO UPDATE SET written_by = EXCLUDED.written_by, etag = EXCLUDED.etag, body = EXCLUDED.body`,
  ];
}
