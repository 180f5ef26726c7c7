import { type RawBuilder, sql } from 'kysely';
import type { Db, Tx } from '../../src/db/index.js';
import { withoutSecondaryIndexes } from './bulk-indexes.js';
import { copyInventoryLevels, countCopiedLists, isOriginal } from './clone-upkeep.js';

/**
 * Set-based catalog copies (issue 42): a million products in one store, or a thousand stores of a thousand, in
 * minutes instead of the hours the API's own path takes. The catalog is first seeded through the API's path
 * (catalog.ts: the service and the import's applier), then copied by INSERT … SELECT over `generate_series`, one
 * statement per table per batch of copies, as PostgreSQL itself would copy rows: the products, their variants, the
 * variants' option links and the products' stored documents, rewritten in SQL to the copy's ids and handles.
 *
 * The rule the copies rely on: every id is 24 hex digits, and a copy's id is its original's with the first four
 * replaced by the copy's prefix (`c` and three hex digits of the copy's number; the API's ids begin with the
 * seconds since 1970 in hex, `6…` until 2029). So a stored document becomes its copy's by one regular expression
 * over its quoted ids (the product's, its variants', productId) and two replacements of its handle (the handle and
 * the SKUs built from it); its ETag is recomputed by PostgreSQL as etagOfCanonical computes it. A copy is
 * therefore a product the API would serve as it serves the original, byte for byte but for its ids and handle:
 * `clone.test.ts` compares every copied document with the product GET builds from the copied rows.
 *
 * Within a store the copies keep the original's option values (the store's attributes); another store gets its
 * own attributes and values, copied the same way. Product-collection memberships are not copied.
 *
 * How it is fast (a million products in minutes): each batch runs with no trigger firing and what the triggers
 * would have written written set-based (clone-upkeep.ts), without waiting for its commit's WAL flush (a seed
 * that crashes is thrown away), in batches of ~50,000 products, with the tables' secondary indexes dropped for
 * the whole load and built after it (bulk-indexes.ts).
 */

/** The columns of `table` in the database as migrated (so a migration's new column is copied without a change here). */
async function columnsOf(db: Db | Tx, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`SELECT column_name AS name FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ${table} AND is_generated = 'NEVER' ORDER BY ordinal_position`.execute(db);
  return rows.map((row) => row.name);
}

/** The copy's prefix for copy number `copy` (1 to 4,095): `c` and three hex digits. */
export function copyPrefix(copy: number): string {
  if (!Number.isInteger(copy) || copy < 1 || copy > 0xfff) throw new Error(`copy number must be 1 to 4095, got ${copy}`);
  return `c${copy.toString(16).padStart(3, '0')}`;
}

/** An id column as its copy's: the first four hex digits replaced by the copy's prefix (`prefix`, a column of `copies`). */
const copied = (column: RawBuilder<unknown>) => sql`overlay(${column} placing copies.prefix from 1 for 4)`;

export interface Copy {
  /** the store whose originals are copied (rows whose id is below `c`: clone-upkeep.ts, isOriginal) */
  from: string;
  /** each one copy of every original: its number (its ids' prefix) and its store (`from` for a copy within the store) */
  copies: { n: number; store: string }[];
}

/**
 * One INSERT … SELECT per copy batch: every row of `table` in `from` (originals only) once per copy, each column as
 * is but those `mapped` gives (the column's expression over the original row `o` and the copy's `copies.n`,
 * `copies.prefix`, `copies.suffix`, `copies.store_id`, `copies.within`). `skip`: columns left to their defaults or
 * triggers; `where`: which copies get rows of this table.
 */
async function copyRows(
  trx: Tx,
  table: string,
  copy: Copy,
  mapped: Record<string, RawBuilder<unknown>>,
  skip: string[] = [],
  where = sql`true`,
): Promise<void> {
  const columns = (await columnsOf(trx, table)).filter((name) => !skip.includes(name));
  const values = columns.map((name) => mapped[name] ?? sql`o.${sql.ref(name)}`);
  await sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map((name) => sql.ref(name)))})
    SELECT ${sql.join(values)} FROM ${sql.table(table)} o CROSS JOIN (${copiesTable(copy)}) AS copies
    WHERE o.store_id = ${copy.from} AND ${isOriginal(sql`o.id`)} AND ${where}`.execute(trx);
}

/** The copies as rows (n, store_id, within, prefix, suffix): the handle suffix only within a store (handles are unique per store). */
function copiesTable(copy: Copy) {
  const numbers = copy.copies.map((c) => c.n);
  const stores = copy.copies.map((c) => c.store);
  return sql`SELECT n, store_id, store_id = ${copy.from} AS within, 'c' || lpad(to_hex(n), 3, '0') AS prefix,
      CASE WHEN store_id = ${copy.from} THEN '-c' || n ELSE '' END AS suffix
    FROM unnest(${numbers}::int[], ${stores}::text[]) AS c(n, store_id)`;
}

/** An id of a store-level record (an option value) as the copy's: the same within the store, else copied. */
const storeLevel = (column: RawBuilder<unknown>) => sql`CASE WHEN copies.within THEN ${column} ELSE ${copied(column)} END`;

/** A SKU built from the product's handle as the copy's SKU (the copy's handle instead); any other SKU unchanged. */
const copiedSku = (sku: RawBuilder<unknown>, handle: RawBuilder<unknown>) =>
  sql`CASE WHEN starts_with(${sku}, ${handle} || '-') THEN ${handle} || copies.suffix || substr(${sku}, length(${handle}) + 1) ELSE ${sku} END`;

/** Another store's copies get the store's option attributes and values (a store's own copies use the store's). */
async function copyOptions(trx: Tx, copy: Copy): Promise<void> {
  const to = sql`copies.store_id`;
  const elsewhere = sql`NOT copies.within`;
  await copyRows(trx, 'attribute_sets', copy, { store_id: to, id: copied(sql`o.id`) }, [], elsewhere);
  const attributeSet = copied(sql`o.attribute_set_id`);
  await copyRows(trx, 'attributes', copy, { store_id: to, id: copied(sql`o.id`), attribute_set_id: attributeSet }, [], elsewhere);
  await copyRows(
    trx,
    'attribute_values',
    copy,
    { store_id: to, id: copied(sql`o.id`), attribute_id: copied(sql`o.attribute_id`) },
    [],
    elsewhere,
  );
}

async function copyProducts(trx: Tx, copy: Copy): Promise<void> {
  const to = sql`copies.store_id`;
  await copyRows(trx, 'products', copy, {
    store_id: to,
    id: copied(sql`o.id`),
    handle: sql`o.handle || copies.suffix`,
    sku: copiedSku(sql`o.sku`, sql`o.handle`),
    attribute_set_id: storeLevel(sql`o.attribute_set_id`),
    // Supplied, as POST /products supplies it (migrations/0061), and what its check at commit would find current
    // (no trigger runs here: clone.test.ts checks it). Its lines are the title, the handle and the SKUs: the
    // handle's replacement is the copy's, as the document's.
    search_text: sql`replace(o.search_text, o.handle, o.handle || copies.suffix)`,
  });
  // A variant's SKU is built from its product's handle: the original product's, read by a scalar subquery.
  const handle = sql`(SELECT p.handle FROM products p WHERE p.store_id = o.store_id AND p.id = o.product_id)`;
  await copyRows(trx, 'variants', copy, {
    store_id: to,
    id: copied(sql`o.id`),
    product_id: copied(sql`o.product_id`),
    sku: copiedSku(sql`o.sku`, handle),
  });
  await sql`INSERT INTO variant_attribute_values (store_id, variant_id, attribute_value_id)
    SELECT copies.store_id, ${copied(sql`o.variant_id`)}, ${storeLevel(sql`o.attribute_value_id`)}
    FROM variant_attribute_values o CROSS JOIN (${copiesTable(copy)}) AS copies
    WHERE o.store_id = ${copy.from} AND ${isOriginal(sql`o.variant_id`)}`.execute(trx);
}

/** etagOfCanonical in SQL: the first 27 characters of the SHA-256's base64url, quoted. */
const etagSql = (body: RawBuilder<unknown>) =>
  sql`'"' || left(translate(encode(sha256(convert_to(${body}, 'UTF8')), 'base64'), '+/', '-_'), 27) || '"'`;

/** The copies' documents: each current original's text with the copy's ids, handle and SKUs, written for the copy's row. */
async function copyDocuments(trx: Tx, copy: Copy): Promise<void> {
  const body = sql`replace(replace(regexp_replace(d.body, '"[0-9a-f]{4}([0-9a-f]{20})"', '"' || copies.prefix || '\\1"', 'g'),
      '"handle":"' || o.handle || '"', '"handle":"' || o.handle || copies.suffix || '"'),
    '"sku":"' || o.handle || '-', '"sku":"' || o.handle || copies.suffix || '-')`;
  await sql`INSERT INTO product_documents (store_id, product_id, written_by, etag, body)
    SELECT c.store_id, c.id, c.xmin, ${etagSql(sql`copy.body`)}, copy.body
    FROM product_documents d
    JOIN products o ON o.store_id = d.store_id AND o.id = d.product_id AND o.xmin = d.written_by
    CROSS JOIN (${copiesTable(copy)}) AS copies
    CROSS JOIN LATERAL (SELECT ${body} AS body) AS copy
    JOIN products c ON c.store_id = copies.store_id AND c.id = overlay(o.id placing copies.prefix from 1 for 4)
    WHERE d.store_id = ${copy.from} AND ${isOriginal(sql`d.product_id`)}`.execute(trx);
}

/**
 * Copies the originals of store `from` into `to` once per copy number, in one transaction with no trigger firing:
 * the options (another store), the products, variants and links, the documents (for the product rows as
 * inserted: no trigger rewrites them), then the inventory levels and list counters the triggers would have written.
 */
export async function copyCatalog(db: Db, copy: Copy): Promise<void> {
  for (const { n } of copy.copies) copyPrefix(n);
  await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL session_replication_role = replica`.execute(trx);
    await sql`SET LOCAL synchronous_commit = off`.execute(trx);
    await copyOptions(trx, copy);
    await copyProducts(trx, copy);
    await copyDocuments(trx, copy);
    const copies = { from: copy.from, table: copiesTable(copy) };
    await copyInventoryLevels(trx, copies);
    await countCopiedLists(trx, copies);
  });
}

/** The tables whose secondary indexes a load of copies drops and builds again. */
const COPIED_TABLES = ['products', 'variants', 'variant_attribute_values', 'product_documents', 'inventory_levels'] as const;

/** Products per batch (one transaction): large enough that a batch's fixed costs vanish, small enough to report progress. */
const PRODUCTS_PER_BATCH = 50_000;

/**
 * Tables the copies' statements read besides the copied ones: the copies' default locations (copyInventoryLevels).
 * A thousand new stores each add one; with statistics from before them, the planner took the locations for one
 * row and scanned every variant once per store (a batch of 50 stores ran for minutes: --stores 1000).
 */
const READ_TABLES = ['locations', 'stores'] as const;

/** One batch: fresh statistics, then its copies in one transaction. */
async function copyBatch(db: Db, from: string, copies: Copy['copies']): Promise<void> {
  // Statistics of the tables as they now are, so each batch reads its originals by the primary keys' ranges
  // (isOriginal) instead of scanning every copy made so far.
  await sql`ANALYZE ${sql.join([...COPIED_TABLES, ...READ_TABLES].map((table) => sql.table(table)))}`.execute(db);
  await copyCatalog(db, { from, copies });
}

/**
 * Copies in batches, one transaction each, `atOnce` batches at a time (each its own connection: the pool must hold
 * that many), reporting progress on stderr. Batches at once must write different stores (copies into other stores):
 * a store's list counters are one set of rows.
 */
async function copyInBatches(db: Db, from: string, copies: Copy['copies'], base: number, label: string, atOnce = 1): Promise<void> {
  const began = Date.now();
  const perBatch = Math.max(1, Math.floor(PRODUCTS_PER_BATCH / base));
  const batches = Array.from({ length: Math.ceil(copies.length / perBatch) }, (_, k) => copies.slice(k * perBatch, (k + 1) * perBatch));
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (let k = next++; k < batches.length; k = next++) {
      await copyBatch(db, from, batches[k]);
      done += batches[k].length;
      process.stderr.write(`  ${label}: ${done}/${copies.length} copies (${Math.round((Date.now() - began) / 1000)} s)\n`);
    }
  };
  await withoutSecondaryIndexes(db, COPIED_TABLES, () => Promise.all(Array.from({ length: atOnce }, worker)));
}

/**
 * The copied tables' secondary indexes built again over the rows as they are, with no copy: what a load of copies
 * leaves them (freshly built), for a database compared with one that received copies (--alone, tenants.ts).
 */
export async function rebuildCopiedIndexes(db: Db): Promise<void> {
  await withoutSecondaryIndexes(db, COPIED_TABLES, async () => undefined);
}

/** The store's catalog (`base` products, all originals) grown to `total` by copies within the store. */
export async function copyWithinStore(db: Db, storeId: string, base: number, total: number): Promise<void> {
  const copies = Array.from({ length: total / base - 1 }, (_, k) => ({ n: k + 1, store: storeId }));
  await copyInBatches(db, storeId, copies, base, 'copies within the store');
}

/**
 * `stores` stores besides `storeId` (created by the service), each holding a copy of its original catalog, `atOnce`
 * batches at a time (the pool of `db` must hold that many connections).
 */
export async function copyIntoStores(db: Db, storeId: string, stores: string[], productsPerStore: number, atOnce = 1): Promise<void> {
  const copies = stores.map((store, k) => ({ n: k + 1, store }));
  await copyInBatches(db, storeId, copies, productsPerStore, 'copies into other stores', atOnce);
}
