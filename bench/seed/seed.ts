import { sql } from 'kysely';
import { createApiKey } from '../../src/api-keys/index.js';
import { createCollection } from '../../src/collections/collections.service.js';
import { loadConfig } from '../../src/config.js';
import { startSession } from '../../src/console/sessions.js';
import { rebuildCustomerDocuments } from '../../src/customers/customers.documents.js';
import { type Db, openDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { createMediaStore } from '../../src/media/backend.js';
import { rebuildProductDocuments } from '../../src/products/products.documents.js';
import { productListSpec } from '../../src/products/products-list.sql.js';
import { likePattern } from '../../src/reads/list-spec.js';
import { createAdmin, createStore } from '../../src/stores/index.js';
import { type BenchTarget, SEED_CONNECT_TIMEOUT_MS } from '../database.js';
import { withoutSecondaryIndexes } from './bulk-indexes.js';
import { SERVICE_PRODUCTS, type SeededProduct, seedCatalog } from './catalog.js';
import { copyWithinStore } from './clone.js';
import { checkFidelity, type Fidelity } from './fidelity.js';
import { SEARCH_TERM, WIDE_SEARCH_TERM } from './fixtures.js';
import { seedCustomers, seedOrders } from './people.js';
import { PRICE_LISTS, seedPriceLists } from './price-lists.js';
import { catalogOrder, orderPlan } from './skew.js';

/** What the scenarios need to know about the seeded store; plain JSON (it travels to the load driver). */
export interface SeedInfo {
  storeId: string;
  storeSlug: string;
  adminEmail: string;
  adminPassword: string;
  apiKey: string;
  /** the admin's console session (`sf_console` cookie value): the console scenarios' credential */
  consoleSession: string;
  counts: { products: number; customers: number; orders: number };
  products: { id: string; price: number; comparePrice: number | null }[];
  cartProducts: { productId: string; title: string; price: number; sku: string }[];
  /** one variant with stock for every checkout a run can make: the checkout scenario's hot row */
  hotVariant: { productId: string; title: string; price: number; sku: string };
  orderIds: string[];
  customerIds: string[];
  smartCollectionId: string;
  searchTerm: string;
  searchMatches: number;
  /** a term matching ~8% of the products (the wide search scenario) */
  wideSearchTerm: string;
  wideSearchMatches: number;
  /** the first product fixture index no seeded product uses (created products start there) */
  nextFixture: number;
  shape: SeedShape;
  smartCollectionMatches: number;
  /** page 2,000 of the price sort, or the last page when the catalog has fewer than 50,000 products */
  pricePage: number;
  fidelity: Fidelity;
  /** the store's currency (its base prices'), and its price lists with their fixed prices (price-lists.ts) */
  currency: string;
  priceLists: { lists: number; fixedPrices: number };
  /** up to 1,000 of the store's products, by a hash of their ids: GET /prices' sets of 250 */
  pricedProductIds: string[];
  seconds: Record<string, number>;
}

/**
 * The data's shape: `skew` (bench/seed/skew.ts); `otherStore`: a second store with its own catalog of the same size;
 * `copiesOf`: products seeded through the API's path, the rest set-based copies of them (clone.ts); `stores`: stores
 * in all, the others set-based copies of the bench store's catalog, added after seed() (tenants.ts); `alone`: the
 * bench store was also measured alone, in a copy of its database made before the others were added.
 */
export interface SeedShape {
  skew: boolean;
  otherStore: boolean;
  copiesOf?: number | null;
  stores?: number;
  alone?: boolean;
}

const SAMPLE = 200;
const ADMIN_PASSWORD = 'bench-admin-password';

/** `count` items spread evenly over `items` (first and last included). */
function spread<T>(items: T[], count: number): T[] {
  if (items.length <= count) return [...items];
  return Array.from({ length: count }, (_, k) => items[Math.floor((k * (items.length - 1)) / (count - 1))]);
}

async function timed<T>(seconds: Record<string, number>, phase: string, work: () => Promise<T>): Promise<T> {
  const began = performance.now();
  const result = await work();
  seconds[phase] = Math.round((performance.now() - began) / 10) / 100;
  process.stderr.write(`  seeded ${phase} in ${seconds[phase]} s\n`);
  return result;
}

/** "Under $100": the smart collection of the smart-collection scenario, created by the service. */
async function seedSmartCollection(db: Db, storeId: string, media: ReturnType<typeof createMediaStore>): Promise<string> {
  const input = {
    title: 'Under $100',
    collectionType: 'smart' as const,
    matchType: 'all condition' as const,
    conditions: [
      { field: 'price', operator: 'less_than', value: '100' },
      { field: 'status', operator: 'equals', value: 'active' },
    ],
  };
  const created = await db.transaction().execute((trx) => createCollection(trx, storeId, input, { store: media, maxBytes: 1024 * 1024 }));
  return created.id;
}

async function pricedProductIds(db: Db, storeId: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`SELECT id FROM products WHERE store_id = ${storeId} ORDER BY md5(id) LIMIT 1000`.execute(db);
  return rows.map((row) => row.id);
}

/** Every checkout of the run takes from this one variant: stock far beyond what any run can sell. */
const HOT_STOCK = 2_000_000_000;

/** 200 of the store's products, originals and copies alike (GET by id's ids), by a hash of their ids. */
async function sampleProducts(db: Db, storeId: string): Promise<SeedInfo['products']> {
  const { rows } = await sql<{ id: string; price: string; compare_price: string | null }>`SELECT id, price, compare_price FROM products
    WHERE store_id = ${storeId} ORDER BY md5(id) LIMIT ${SAMPLE}`.execute(db);
  return rows.map((row) => ({
    id: row.id,
    price: Number(row.price),
    comparePrice: row.compare_price === null ? null : Number(row.compare_price),
  }));
}

async function seedHotVariant(db: Db, storeId: string, product: SeededProduct): Promise<SeedInfo['hotVariant']> {
  await sql`UPDATE variants SET stock = ${HOT_STOCK} WHERE store_id = ${storeId} AND product_id = ${product.id} AND sku = ${product.sku}`.execute(
    db,
  );
  return { productId: product.id, title: product.title, price: product.price, sku: product.sku };
}

async function countWhere(db: Db, storeId: string, condition: ReturnType<typeof sql>): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`SELECT count(*)::int AS n FROM products WHERE products.store_id = ${storeId} AND ${condition}`.execute(db);
  return rows[0]?.n ?? 0;
}

interface Seeded {
  order: number[];
  storeId: string;
  apiKey: string;
  consoleSession: string;
  products: SeededProduct[];
  customerIds: string[];
  orderIds: string[];
  smartCollectionId: string;
  fixedPrices: number;
}

async function seedAll(
  db: Db,
  target: BenchTarget,
  productCount: number,
  shape: SeedShape,
  seconds: Record<string, number>,
): Promise<Seeded> {
  const config = loadConfig({ STOREFRONT_DATA_DIR: target.dataDir, STOREFRONT_JWT_SECRET: 'x'.repeat(32), LOG_LEVEL: 'silent' });
  const media = createMediaStore(config, { db, engine: target.engine });
  const ctx = { media, config };
  if (shape.otherStore) {
    // Another tenant as large, whose products match the same terms: a search must not pay for them.
    const other = await createStore(db, { slug: 'bench-other', name: 'Other store' });
    await timed(seconds, 'other-store-products', () => seedCatalog(db, other.id, catalogOrder(productCount, false), ctx));
  }
  const store = await createStore(db, { slug: 'bench', name: 'Bench store' });
  const admin = await createAdmin(db, store.id, { email: 'admin@bench.test', password: ADMIN_PASSWORD });
  const consoleSession = await startSession(db, { storeId: store.id, adminId: admin.id }, 24);
  const { key } = await createApiKey(db, store.id, { name: 'bench', scopes: ['*'] });
  // With copies, the API's path seeds `copiesOf` products, and customers and orders follow that count.
  const seeded = shape.copiesOf ?? productCount;
  const order = catalogOrder(seeded, shape.skew);
  const products = await timed(seconds, 'products', () => seedCatalog(db, store.id, order, ctx));
  const smartCollectionId = await seedSmartCollection(db, store.id, media);
  const customerIds = await timed(seconds, 'customers', () => seedCustomers(db, store.id, Math.floor(seeded / 2)));
  const plan = orderPlan(seeded * 2, shape.skew);
  const orderIds = await timed(seconds, 'orders', () => seedOrders(db, store.id, plan, products, customerIds));
  // What the API's writes leave: each product's and customer's stored document (the seed calls the service and the import's
  // applier directly, past the write door, which is where documents are written).
  await timed(seconds, 'product-documents', () => rebuildProductDocuments(db, store.id));
  await timed(seconds, 'customer-documents', () => rebuildCustomerDocuments(db, store.id));
  if (seeded < productCount) await timed(seconds, 'product-copies', () => copyWithinStore(db, store.id, seeded, productCount));
  // ~2 fixed prices per item: 18 million rows at a million products, loaded as the copies are (bulk-indexes.ts).
  const fixedPrices = await timed(seconds, 'price-lists', () =>
    withoutSecondaryIndexes(db, ['price_list_prices'], () => seedPriceLists(db, store.id)),
  );
  // A fresh import is analyzed before it is measured, as autovacuum (PostgreSQL) or the server's timer (PGlite) would.
  await timed(seconds, 'vacuum-analyze', () => sql`VACUUM ANALYZE`.execute(db));
  return { order, storeId: store.id, apiKey: key, consoleSession, products, customerIds, orderIds, smartCollectionId, fixedPrices };
}

/** Creates, fills and closes the target's database; the server under test starts on it afterwards. */
export async function seed(
  target: BenchTarget,
  productCount: number,
  shape: SeedShape = { skew: false, otherStore: false },
): Promise<SeedInfo> {
  const seconds: Record<string, number> = {};
  const database = await openDatabase({
    databaseUrl: target.databaseUrl,
    dataDir: target.dataDir,
    poolSize: 4,
    connectTimeoutMs: SEED_CONNECT_TIMEOUT_MS,
  });
  try {
    await migrate(database.db);
    const db = database.db;
    const s = await seedAll(db, target, productCount, shape, seconds);
    const fidelity = await checkFidelity(db, s.storeId, s.products[0].id, s.products[Math.min(SERVICE_PRODUCTS, s.products.length - 1)].id);
    const hotVariant = await seedHotVariant(db, s.storeId, s.products[s.products.length >> 1]);
    const matchesOf = (term: string) =>
      countWhere(db, s.storeId, productListSpec.search(likePattern(term), s.storeId) as ReturnType<typeof sql>);
    const [matches, wideMatches] = [await matchesOf(SEARCH_TERM), await matchesOf(WIDE_SEARCH_TERM)];
    const under100 = await countWhere(db, s.storeId, sql`products.price < 100 AND products.status = 'active'`);
    return {
      storeId: s.storeId,
      storeSlug: 'bench',
      adminEmail: 'admin@bench.test',
      adminPassword: ADMIN_PASSWORD,
      apiKey: s.apiKey,
      consoleSession: s.consoleSession,
      counts: { products: productCount, customers: s.customerIds.length, orders: s.orderIds.length },
      products:
        s.products.length < productCount
          ? await sampleProducts(db, s.storeId)
          : spread(s.products, SAMPLE).map(({ id, price, comparePrice }) => ({ id, price, comparePrice })),
      cartProducts: spread(s.products, 50).map(({ id, title, price, sku }) => ({ productId: id, title, price, sku })),
      hotVariant,
      orderIds: spread(s.orderIds, SAMPLE),
      customerIds: spread(s.customerIds, SAMPLE),
      smartCollectionId: s.smartCollectionId,
      searchTerm: SEARCH_TERM,
      searchMatches: matches,
      wideSearchTerm: WIDE_SEARCH_TERM,
      wideSearchMatches: wideMatches,
      nextFixture: s.order.reduce((max, j) => Math.max(max, j), 0) + 1,
      shape,
      smartCollectionMatches: under100,
      pricePage: Math.max(1, Math.min(2000, Math.ceil(productCount / 25))),
      fidelity,
      currency: 'USD',
      priceLists: { lists: PRICE_LISTS, fixedPrices: s.fixedPrices },
      pricedProductIds: await pricedProductIds(db, s.storeId),
      seconds,
    };
  } finally {
    await database.close();
  }
}
