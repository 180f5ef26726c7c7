import { writeFileSync } from 'node:fs';
import { CompiledQuery } from 'kysely';
import { findLiveApiKey } from '../src/api-keys/index.js';
import { productsInCollection } from '../src/collections/membership.js';
import type { CustomerListQuery } from '../src/customers/customers.schema.js';
import { listCustomerTexts } from '../src/customers/customers.service.js';
import { getCustomer } from '../src/customers/index.js';
import { type Db, openDatabase } from '../src/db/database.js';
import type { OrderListQuery } from '../src/orders/index.js';
import { getOrder, listOrders } from '../src/orders/index.js';
import type { ProductListQuery } from '../src/products/products.schema.js';
import { getProduct, listProducts, listProductTexts } from '../src/products/products.service.js';
import { PageAnchors } from '../src/reads/index.js';
import { StatementRecorder } from '../test/support/statements.js';
import type { BenchTarget } from './database.js';
import type { SeedInfo } from './seed/seed.js';

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the SQL the read scenarios really run: the service functions are
 * called on a Kysely instance whose plugin records every statement, then each is explained.
 */

const listQuery = (query: Partial<ProductListQuery>) => ({ page: 1, limit: 25, sort: '-createdAt', ...query }) as ProductListQuery;

function reads(info: SeedInfo): [string, (db: Db) => Promise<unknown>][] {
  const storeId = info.storeId;
  return [
    ['bearer: API key lookup (every request)', (db) => findLiveApiKey(db, info.apiKey)],
    ['get product by id', (db) => getProduct(db, storeId, info.products[Math.floor(info.products.length / 2)].id)],
    ['list products page 1', (db) => listProducts(db, storeId, listQuery({}))],
    [
      `list products page ${info.pricePage} by price`,
      (db) => listProducts(db, storeId, listQuery({ page: info.pricePage, sort: 'price' })),
    ],
    [`search products "${info.searchTerm}"`, (db) => listProducts(db, storeId, listQuery({ search: info.searchTerm }))],
    [`search products "${info.wideSearchTerm}"`, (db) => listProducts(db, storeId, listQuery({ search: info.wideSearchTerm }))],
    [`search products "${info.searchTerm}" page 2`, (db) => listProducts(db, storeId, listQuery({ search: info.searchTerm, page: 2 }))],
    // The drawn scenarios' pages as the route reads them (stored documents): issue 42.
    ['list page 41 by title (documents)', (db) => listProductTexts(db, storeId, listQuery({ page: 41, sort: 'title' }))],
    ['list page 41 by -price (documents)', (db) => listProductTexts(db, storeId, listQuery({ page: 41, sort: '-price' }))],
    [
      `list page ${info.pricePage} (documents)`,
      (db) => listProductTexts(db, storeId, listQuery({ page: info.pricePage, sort: 'createdAt' })),
    ],
    // page 2,000 of 25 from the near end, then from page anchors: the walk of the list, then the anchored page (issue 42)
    ['list page 2000 by title (documents, no anchors)', (db) => listProductTexts(db, storeId, listQuery({ page: 2000, sort: 'title' }))],
    [
      'list page 2000 by title (documents, page anchors: the walk, then the page)',
      (db) => listProductTexts(db, storeId, listQuery({ page: 2000, sort: 'title' }), undefined, { anchors: new PageAnchors() }),
    ],
    [
      `search products "${info.wideSearchTerm}" page 20 by title (documents)`,
      (db) => listProductTexts(db, storeId, listQuery({ search: info.wideSearchTerm, page: 20, sort: 'title' })),
    ],
    ['list customers page 150', (db) => listCustomerTexts(db, storeId, { page: 150, limit: 25, sort: '-createdAt' } as CustomerListQuery)],
    [
      'smart collection page 1',
      async (db) =>
        listProducts(db, storeId, listQuery({}), {
          condition: await productsInCollection(db, storeId, info.smartCollectionId),
          collectionId: info.smartCollectionId,
        }),
    ],
    ['get order', (db) => getOrder(db, storeId, info.orderIds[Math.floor(info.orderIds.length / 2)])],
    [
      'list orders by status',
      (db) => listOrders(db, storeId, { page: 1, limit: 25, sort: '-createdAt', status: 'fulfilled' } as OrderListQuery),
    ],
    ['get customer', (db) => getCustomer(db, storeId, info.customerIds[0])],
  ];
}

async function explain(db: Db, statement: CompiledQuery): Promise<string> {
  const result = await db.executeQuery<Record<string, string>>(
    CompiledQuery.raw(`EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`, [...statement.parameters]),
  );
  return result.rows.map((row) => Object.values(row)[0]).join('\n');
}

/** Writes the plans to `file` (the server is not running yet: on PGlite the bench owns the data dir). */
export async function explainReads(target: BenchTarget, info: SeedInfo, file: string): Promise<void> {
  const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir, poolSize: 1 });
  const sections: string[] = [];
  try {
    for (const [title, call] of reads(info)) {
      const recorder = new StatementRecorder();
      await call(database.db.withPlugin(recorder));
      for (const statement of recorder.statements) {
        sections.push(
          `=== ${title}\n${statement.sql}\n-- parameters: ${JSON.stringify(statement.parameters)}\n${await explain(database.db, statement)}\n`,
        );
      }
    }
  } finally {
    await database.close();
  }
  writeFileSync(file, sections.join('\n'));
  process.stderr.write(`EXPLAIN ANALYZE of the read scenarios: ${file}\n`);
}
