import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { issueAccessToken } from '../src/auth/tokens.js';
import { loadConfig } from '../src/config.js';
import { openMigratedDatabase } from '../src/db/open-migrated.js';
import { etagOf } from '../src/shared/canonical-json.js';
import { newId } from '../src/shared/ids.js';
import { createStore } from '../src/stores/stores.service.js';
import { createTarget } from './database.js';

/**
 * What idempotency keys and ETags cost, in process (no network), on one fresh database:
 *   node --import tsx bench/safe-writes.ts [requests=300]      (BENCH_DATABASE_URL: postgres server; else PGlite)
 * POST /orders with a fresh key vs without; GET /products/{id} timed whole, and the ETag's own work
 * (hashing the same `data`) timed beside it, in alternating blocks (see `alternate`).
 */

const REQUESTS = Number(process.argv[2] ?? 300);
const BLOCK = 25;
const order = { cartItems: [{ productId: 'p1', title: 'Tee', price: 19.99, quantity: 2 }], subTotal: 39.98, totalAmount: 39.98 };

type Inject = (method: string, url: string, body?: object, headers?: Record<string, string>) => Promise<{ status: number; body: string }>;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * ms per call of each variant: `requests` calls each, in alternating blocks of BLOCK, so both meet the
 * same phases of a noisy machine; the median block, so a burst of load elsewhere does not decide.
 */
async function alternate(variants: Record<string, () => Promise<unknown>>, requests: number): Promise<Record<string, number>> {
  const blocks: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  for (let done = 0; done < requests; done += BLOCK) {
    for (const [name, call] of Object.entries(variants)) {
      const ms = await timed(async () => {
        for (let i = 0; i < BLOCK; i++) await call();
      });
      blocks[name].push(ms / BLOCK);
    }
  }
  return Object.fromEntries(Object.entries(blocks).map(([name, perCall]) => [name, median(perCall)]));
}

async function expectStatus(inject: Inject, status: number, ...args: Parameters<Inject>) {
  const res = await inject(...args);
  if (res.status !== status) throw new Error(`${args[0]} ${args[1]}: ${res.status} ${res.body}`);
  return res;
}

async function measureOrders(inject: Inject) {
  await alternate({ warm: () => expectStatus(inject, 201, 'POST', '/orders', order) }, BLOCK);
  return alternate(
    {
      plain: () => expectStatus(inject, 201, 'POST', '/orders', order),
      keyed: () => expectStatus(inject, 201, 'POST', '/orders', order, { 'idempotency-key': randomBytes(12).toString('hex') }),
    },
    REQUESTS,
  );
}

async function measureGetProduct(inject: Inject, options: object) {
  const created = JSON.parse((await expectStatus(inject, 201, 'POST', '/products', { title: 'Bench', price: 10, options })).body);
  const url = `/products/${created.data.id}`;
  const get = () => expectStatus(inject, 200, 'GET', url);
  await alternate({ warm: get }, BLOCK);
  const data = JSON.parse((await inject('GET', url)).body).data;
  // The ETag's whole work on a GET: hashing the canonical JSON of the `data` it sends.
  const { get: getMs, etag: etagMs } = await alternate({ get, etag: async () => etagOf(data) }, REQUESTS);
  return { variants: data.variants.length, getMs, etagMs, bytes: (await inject('GET', url)).body.length };
}

async function main(): Promise<void> {
  const target = await createTarget(process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite', process.env.BENCH_DATABASE_URL ?? null);
  const config = {
    ...loadConfig({ DATABASE_URL: target.databaseUrl ?? '', STOREFRONT_DATA_DIR: target.dataDir, STOREFRONT_JWT_SECRET: 'b'.repeat(48) }),
    logLevel: 'silent',
    rateLimit: 0,
  };
  const database = await openMigratedDatabase(config);
  const app = await buildApp({ config, database, redisPrefix: `bench-safe-writes-${randomBytes(4).toString('hex')}:` });
  try {
    const store = await createStore(database.db, { slug: `bench-${randomBytes(4).toString('hex')}`, name: 'Bench' });
    const adminId = newId();
    await database.db
      .insertInto('admins')
      .values({ store_id: store.id, id: adminId, email: 'bench@bench.test', password_hash: 'unused' })
      .execute();
    const token = await issueAccessToken({ storeId: store.id, adminId }, config.jwtSecret, 3600);
    const inject: Inject = async (method, url, body, headers = {}) => {
      const res = await app.inject({
        method: method as 'GET',
        url: `/api/v1${url}`,
        headers: { authorization: `Bearer ${token}`, ...headers },
        payload: body,
      });
      return { status: res.statusCode, body: res.body };
    };
    const orders = await measureOrders(inject);
    const small = await measureGetProduct(inject, []);
    const large = await measureGetProduct(inject, [
      { name: 'Size', values: ['XS', 'S', 'M', 'L', 'XL'] },
      { name: 'Color', values: ['Red', 'Blue', 'Green', 'Black'] },
    ]);
    const lines = [
      `engine ${target.engine}, ${REQUESTS} sequential requests per variant, in-process (app.inject), median of blocks of ${BLOCK}`,
      `POST /orders: without key ${orders.plain.toFixed(2)} ms, with a fresh key ${orders.keyed.toFixed(2)} ms, ratio ${(orders.keyed / orders.plain).toFixed(2)}`,
      ...[small, large].map(
        (p) =>
          `GET /products/{id} (${p.variants} variants, ${p.bytes} bytes): ${p.getMs.toFixed(3)} ms, of which ETag ${(p.etagMs * 1000).toFixed(1)} µs ` +
          `(${((100 * p.etagMs) / p.getMs).toFixed(1)}%), ratio with/without ${(p.getMs / (p.getMs - p.etagMs)).toFixed(3)}`,
      ),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await app.close();
    await database.close();
    await target.drop();
  }
}

await main();
