import { randomUUID } from 'node:crypto';
import type { Request } from 'autocannon';
import { customerPages, deepListPage, deepListPages, listPages, narrowSearchPages, wideSearchPages } from './drawn-reads.js';
import { PRODUCT_OPTIONS, productFixture } from './seed/fixtures.js';
import type { SeedInfo } from './seed/seed.js';

/**
 * The measured scenarios. Requests are built in the load driver (autocannon's setupRequest runs
 * there), so a scenario is a name plus a function of the seeded store; reads run before writes so
 * the writes' new rows never change what the reads measure.
 */

export interface ScenarioContext {
  seed: SeedInfo;
  /** the bearer credential of every request but POST /auth */
  credential: string;
}

export interface Scenario {
  name: string;
  label: string;
  kind: 'read' | 'write';
  requests(ctx: ScenarioContext): Request[];
  /** every URL a read scenario requests: the ceiling server holds their real responses */
  urls?(ctx: ScenarioContext): string[];
  /**
   * Spread connections over many client addresses, each used for a few requests: POST /auth
   * allows 30 attempts a minute per address (CONTRACT §4), and a login service is called by many
   * clients, not one.
   */
  manyClients?: boolean;
  /**
   * Also measure the same requests with event appending switched off in the server (a bench-only switch,
   * bench/serve.mjs), round for round: the cost of the event feed on this write.
   */
  eventCost?: boolean;
}

const API = '/api/v1';
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];
const json = { 'content-type': 'application/json' };
const auth = (ctx: ScenarioContext) => ({ authorization: `Bearer ${ctx.credential}` });
const CONSOLE = '/console';

/** A request's credential: the API key for the API, the admin's session cookie for the console. */
export const headersFor = (ctx: ScenarioContext, path: string): Record<string, string> =>
  path.startsWith(`${CONSOLE}/`) ? { cookie: `sf_console=${ctx.seed.consoleSession}` } : auth(ctx);

/** One GET request whose path is drawn at random per request (connections do not march in step). */
function getEach(ctx: ScenarioContext, path: () => string): Request[] {
  const first = path();
  return [{ method: 'GET', path: first, headers: headersFor(ctx, first), setupRequest: (request) => ({ ...request, path: path() }) }];
}

function getOne(ctx: ScenarioContext, path: string): Request[] {
  return [{ method: 'GET', path, headers: headersFor(ctx, path) }];
}

/**
 * A body per request: unique titles (handles), so every create is a new product. `extraHeaders`, when
 * given, is drawn per request too (e.g. a fresh Idempotency-Key).
 */
function sendEach(
  ctx: ScenarioContext,
  method: 'POST' | 'PATCH',
  path: () => string,
  body: () => unknown,
  extraHeaders: () => Record<string, string> = () => ({}),
): Request[] {
  const headers = () => ({ ...auth(ctx), ...json, ...extraHeaders() });
  return [
    {
      method,
      path: path(),
      headers: headers(),
      body: JSON.stringify(body()),
      setupRequest: (request) => ({ ...request, path: path(), headers: headers(), body: JSON.stringify(body()) }),
    },
  ];
}

export const productPath = (id: string) => `${API}/products/${id}`;

/** Load-driver-wide: rounds of one run must never repeat a title (handles would get suffixes). */
let created = 0;

/** A product like the seeded ones (same generator and options), numbered past them so its handle is new. */
function newProductBody(seed: SeedInfo) {
  created += 1;
  return { ...productFixture(seed.nextFixture + created), options: PRODUCT_OPTIONS };
}

export function newOrderBody(seed: SeedInfo) {
  const lines = [pick(seed.cartProducts), pick(seed.cartProducts), pick(seed.cartProducts)].map((p, k) => ({
    productId: p.productId,
    title: p.title,
    price: p.price,
    quantity: k + 1,
    sku: p.sku,
  }));
  const subTotal = Math.round(lines.reduce((sum, line) => sum + line.price * line.quantity, 0) * 100) / 100;
  const address = { firstName: 'Bench', lastName: 'Buyer', address1: '1 Main Street', city: 'Springfield', zip: '60000', country: 'US' };
  return {
    cartItems: lines,
    subTotal,
    totalAmount: subTotal + 5,
    shippingCharge: 5,
    userId: pick(seed.customerIds),
    contactEmail: 'buyer@example.test',
    shippingAddress: address,
    billingAddress: address,
    paymentMethod: 'card',
    paymentStatus: 'paid',
  };
}

/**
 * A custom checkout: the create-order body, its lines replaced by one unit of the seeded hot variant,
 * with inventoryBehaviour "decrement": every request of every connection locks and decrements that one row.
 */
function newCheckoutBody(seed: SeedInfo) {
  const { productId, title, price, sku } = seed.hotVariant;
  const cartItems = [{ productId, title, price, quantity: 1, sku }];
  return { ...newOrderBody(seed), cartItems, subTotal: price, totalAmount: price + 5, inventoryBehaviour: 'decrement' };
}

/** The patched price alternates below the product's compare price, so every PATCH is valid. */
function newPriceBody(product: SeedInfo['products'][number]) {
  const price = Math.random() < 0.5 ? product.price : Math.round(product.price * 90) / 100;
  return { price };
}

/** GET /prices for sets of 250 products, in the store's currency and in EUR (fixed prices only) by turns. */
function pricesPages(seed: SeedInfo): string[] {
  const ids = seed.pricedProductIds;
  const sets = Math.max(1, Math.floor(ids.length / 250));
  return Array.from({ length: sets }, (_, k) => {
    const currency = k % 2 === 0 ? seed.currency : 'EUR';
    return `${API}/prices?productIds=${ids.slice(k * 250, (k + 1) * 250).join(',')}&currency=${currency}`;
  });
}

/** A read scenario over a fixed set of URLs, one drawn at random per request (connections do not march in step). */
function read(name: string, label: string, urls: (ctx: ScenarioContext) => string[]): Scenario {
  return {
    name,
    label,
    kind: 'read',
    urls,
    requests: (ctx) => {
      const all = urls(ctx);
      return all.length === 1 ? getOne(ctx, all[0]) : getEach(ctx, () => pick(all));
    },
  };
}

/** A write scenario POSTing a new body (and, when given, new extra headers) to /api/v1/<resource> per request. */
function createEach(
  name: string,
  label: string,
  resource: string,
  body: (ctx: ScenarioContext) => unknown,
  extraHeaders?: () => Record<string, string>,
): Scenario {
  return {
    name,
    label,
    kind: 'write',
    requests: (ctx) =>
      sendEach(
        ctx,
        'POST',
        () => `${API}/${resource}`,
        () => body(ctx),
        extraHeaders,
      ),
  };
}

export const SCENARIOS: Scenario[] = [
  read('get-product', 'get product by id', (ctx) => ctx.seed.products.map((p) => productPath(p.id))),
  // Issue 40: the same products priced in the store's currency by its 100 price lists (resolvedPrice per variant).
  read('get-product-currency', 'get product ?currency', (ctx) =>
    ctx.seed.products.map((p) => `${productPath(p.id)}?currency=${ctx.seed.currency}`),
  ),
  read('prices-250', 'GET /prices 250 products, 100 lists', (ctx) => pricesPages(ctx.seed)),
  read('list-products', 'list products p1', () => [`${API}/products`]),
  // The side-by-side list: 25 products at page 41 in the default order (newest first).
  read('list-products-p41', 'list products p41', () => [`${API}/products?page=41`]),
  // The same lists over many pages, one drawn per request: identical reads made together share one statement
  // (src/reads/shared-reads.ts), which the one-URL scenarios above always hit; these mostly do not.
  read('list-products-pages', 'list products p1-80', () => Array.from({ length: 80 }, (_, i) => `${API}/products?page=${i + 1}`)),
  read('list-customers-pages', 'list customers p1-80', () => Array.from({ length: 80 }, (_, i) => `${API}/customers?page=${i + 1}`)),
  read('list-products-price-deep', 'list p2000 by price', (ctx) => [`${API}/products?page=${ctx.seed.pricePage}&sort=price`]),
  read('search-products', 'search products 1%', (ctx) => [`${API}/products?search=${encodeURIComponent(ctx.seed.searchTerm)}`]),
  read('search-products-wide', 'search products 8%', (ctx) => [`${API}/products?search=${encodeURIComponent(ctx.seed.wideSearchTerm)}`]),
  read('search-products-p2', 'search products 1% p2', (ctx) => [
    `${API}/products?search=${encodeURIComponent(ctx.seed.searchTerm)}&page=2`,
  ]),
  // Issue 42: the URL drawn per request over (page, sort), so no two concurrent requests are alike (drawn-reads.ts).
  read('list-drawn', 'list p31-51, 6 sorts, drawn', (ctx) => listPages(ctx.seed)),
  read('search-wide-drawn', 'search 8% p1-30, 6 sorts, drawn', (ctx) => wideSearchPages(ctx.seed)),
  read('search-drawn', 'search 1% p1-4, 6 sorts, drawn', (ctx) => narrowSearchPages(ctx.seed)),
  read('list-customers-drawn', 'list customers p1-200, drawn', (ctx) => customerPages(ctx.seed)),
  read('list-deep', 'list p2000', (ctx) => deepListPage(ctx.seed)),
  read('list-deep-drawn', 'list p1990-2010, 6 sorts, drawn', (ctx) => deepListPages(ctx.seed)),
  read('smart-collection', 'smart collection p1', (ctx) => [`${API}/collections/${ctx.seed.smartCollectionId}/products`]),
  read('get-order', 'get order', (ctx) => ctx.seed.orderIds.map((id) => `${API}/orders/${id}`)),
  read('list-orders-status', 'list orders by status', () => [`${API}/orders?status=fulfilled`]),
  read('list-customers', 'list customers p1', () => [`${API}/customers`]),
  read('get-customer', 'get customer', (ctx) => ctx.seed.customerIds.map((id) => `${API}/customers/${id}`)),
  // The console's lists as a signed-in admin sees them (HTML, 50 rows, no total; CONTRACT §12): page 1, a filtered
  // page and a searched one, drawn per request. Their latency must not grow with the catalog (10k against 100k).
  read('console-products', 'console products list', (ctx) =>
    ['', '?status=active', `?search=${encodeURIComponent(ctx.seed.searchTerm)}`].map((query) => `${CONSOLE}/products${query}`),
  ),
  read('console-customers', 'console customers list', () => ['', '?search=Radia'].map((query) => `${CONSOLE}/customers${query}`)),
  {
    name: 'patch-product-price',
    label: 'patch product price',
    kind: 'write',
    requests: (ctx) => {
      let product = pick(ctx.seed.products);
      return sendEach(
        ctx,
        'PATCH',
        () => {
          product = pick(ctx.seed.products);
          return productPath(product.id);
        },
        () => newPriceBody(product),
      );
    },
  },
  { ...createEach('create-product', 'create product 2x3x3', 'products', (ctx) => newProductBody(ctx.seed)), eventCost: true },
  { ...createEach('create-order', 'create order 3 items', 'orders', (ctx) => newOrderBody(ctx.seed)), eventCost: true },
  // The same as create-order with a fresh Idempotency-Key on each request: the key's cost is the ratio of the two.
  createEach(
    'create-order-keyed',
    'create order 3 items, Idempotency-Key',
    'orders',
    (ctx) => newOrderBody(ctx.seed),
    () => ({
      'idempotency-key': `bench-${randomUUID()}`,
    }),
  ),
  createEach('checkout-hot-variant', 'create order, decrement 1 hot variant', 'orders', (ctx) => newCheckoutBody(ctx.seed)),
  {
    name: 'auth',
    label: 'POST /auth',
    kind: 'write',
    manyClients: true,
    requests: (ctx) => [
      {
        method: 'POST',
        path: `${API}/auth`,
        headers: json,
        body: JSON.stringify({ storeSlug: ctx.seed.storeSlug, email: ctx.seed.adminEmail, password: ctx.seed.adminPassword }),
      },
    ],
  },
];

/**
 * Runs only against the ceiling server (PostgreSQL): the get-by-id URLs after n `SELECT 1` round trips.
 * get-product itself makes 3 sequential round trips (API key, product, then variants and collections in parallel).
 */
export const FLOOR_SCENARIOS: Scenario[] = [1, 3].map((n) => ({
  name: `floor-${n}`,
  label: `floor: ${n} x SELECT 1`,
  kind: 'read' as const,
  requests: (ctx: ScenarioContext) => getEach(ctx, () => `/floor/${n}${productPath(pick(ctx.seed.products).id)}`),
}));

/** The scaling scenarios (issue: get-by-id, list page 1 and search at 1k, 10k and 100k). */
export const SCALING_SCENARIOS = ['get-product', 'list-products', 'search-products'];

export function scenarioByName(name: string): Scenario {
  const scenario = [...SCENARIOS, ...FLOOR_SCENARIOS].find((candidate) => candidate.name === name);
  if (!scenario) throw new Error(`unknown scenario "${name}"; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  return scenario;
}
