import { sql } from 'kysely';
import { appAfterWork } from '../../src/app.js';
import type { Db, Tx } from '../../src/db/index.js';
import { handleBaseOf } from '../../src/products/handles.js';
import { combinations, skuOf } from '../../src/products/options.js';
import { importProductBatch } from '../../src/products/products.import-batch.js';
import type { CreateProductInput } from '../../src/products/products.schema.js';
import { createProduct, type ProductContext } from '../../src/products/products.service.js';
import { importMatchesByHandle } from '../../src/products/products.sql.js';
import type { ImportBatchLine } from '../../src/shared/index.js';
import { inChunks } from './bulk.js';
import { createdAtOf, PRODUCT_OPTIONS, productFixture } from './fixtures.js';

/**
 * The catalog: the first products through the service's own `createProduct` (the reference the fidelity
 * check compares with), the rest as product import lines through the products' batch applier
 * (src/products/products.import-batch.ts, what POST /imports runs), so every seeded row is one the API
 * writes. The only thing the seed says that a line cannot is when each product was created: the applier is
 * given the catalog's creation times (spread over two years), as it is given "now" in the API.
 * Seeding products this way takes about 1.3-1.5 times as long as the multi-row INSERTs it replaced (10k on
 * PostgreSQL, same run: the products phase 1.48x, the whole seed 1.3x): each line is checked as POST checks
 * it and hashed, products are inserted with ON CONFLICT on the handle (another writer may take it), and each
 * product's event is built. That is the API's own work, and what makes a seeded row one the API writes.
 */

/** How many products go through createProduct (the rest through the batch applier). */
export const SERVICE_PRODUCTS = 20;
/** Lines per applier call, each call one transaction: the import job's batches are 100 lines; bigger ones cost less here. */
const CHUNK = 1000;

export interface SeededProduct {
  id: string;
  title: string;
  price: number;
  comparePrice: number | null;
  sku: string;
}

export function productInput(i: number) {
  const fixture = productFixture(i);
  return { ...fixture, options: PRODUCT_OPTIONS };
}

/** Product fixture j as an import line: the body POST /products takes, with the handle createProduct would give it. */
function productLine(j: number) {
  const input = productInput(j);
  return { ...input, handle: handleBaseOf(input.title) } satisfies CreateProductInput;
}

const FIRST_COMBINATION = combinations(PRODUCT_OPTIONS)[0];

/** The lines at positions [start, end) of the bulk part; `line` is the product's position in creation order. */
function linesOf(order: number[], start: number, end: number): ImportBatchLine[] {
  const lines: ImportBatchLine[] = [];
  for (let k = start; k < end; k++) {
    const value = productLine(order[SERVICE_PRODUCTS + k]);
    lines.push({ line: SERVICE_PRODUCTS + k, value, text: JSON.stringify(value) });
  }
  return lines;
}

/** Applies the lines; every one must create its product (anything else is a seed the API would not write). */
async function applyLines(
  apply: ReturnType<typeof importProductBatch>,
  trx: Tx,
  storeId: string,
  lines: ImportBatchLine[],
): Promise<SeededProduct[]> {
  const results = await apply(trx, storeId, lines, { handling: 'strict', afterWork: SEED_AFTER_WORK });
  const refused = results.findIndex((result) => result !== 'created');
  if (refused !== -1) throw new Error(`seed line ${lines[refused].line} was not created: ${String(results[refused])}`);
  const values = lines.map((line) => line.value as ReturnType<typeof productLine>);
  const ids = new Map(
    (
      await importMatchesByHandle(
        trx,
        storeId,
        values.map((value) => value.handle),
      )
    ).map((match) => [match.handle, match.id]),
  );
  return values.map((value) => ({
    id: ids.get(value.handle) as string,
    title: value.title,
    price: value.price,
    comparePrice: value.comparePrice,
    sku: skuOf(value.handle, FIRST_COMBINATION),
  }));
}

// A seeded store has no feed (the service products above append none either): 100k product.created events
// would be history no read scenario asks for, and work for the server's feed retention meanwhile. So the
// seed's own after-work writes the products' stored documents and no event.
const SEED_AFTER_WORK = appAfterWork({ appendsEvents: () => false });

/** Products at positions [SERVICE_PRODUCTS, order.length) in chunks of CHUNK lines, each chunk one transaction. */
async function bulkProducts(db: Db, storeId: string, order: number[], now: number, ctx: ProductContext, seeded: SeededProduct[]) {
  const count = order.length;
  const apply = importProductBatch(ctx, (line) => createdAtOf(line.line, count, 2, now));
  await inChunks(db, count - SERVICE_PRODUCTS, CHUNK, 'products', async (trx, start, end) => {
    seeded.push(...(await applyLines(apply, trx as Tx, storeId, linesOf(order, start, end))));
  });
}

/**
 * `order` holds the fixture index of each product in creation order (bench/seed/skew.ts). Returns
 * every product in creation order with what the scenarios need to address and buy it.
 */
export async function seedCatalog(db: Db, storeId: string, order: number[], ctx: ProductContext): Promise<SeededProduct[]> {
  const seeded: SeededProduct[] = [];
  const now = Date.now();
  const count = order.length;
  for (let i = 0; i < Math.min(SERVICE_PRODUCTS, count); i++) {
    const product = await db.transaction().execute((trx) => createProduct(trx, storeId, productInput(order[i]), ctx));
    seeded.push({
      id: product.id,
      title: product.title,
      price: Number(product.price),
      comparePrice: product.comparePrice,
      sku: product.variants[0].sku ?? '',
    });
  }
  // The service's inserts above made the connection cache foreign-key check plans for near-empty
  // tables (sequential scans); statistics make the first bulk chunk plan them again, with indexes.
  await sql`ANALYZE`.execute(db);
  if (count > SERVICE_PRODUCTS) await bulkProducts(db, storeId, order, now, ctx, seeded);
  return seeded;
}
