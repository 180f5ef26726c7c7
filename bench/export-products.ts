import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { issueAccessToken } from '../src/auth/tokens.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { newId } from '../src/shared/ids.js';
import { createStore } from '../src/stores/index.js';
import { createTarget } from './database.js';

/**
 * `export-products`: time to stream a whole store's products (2 options × 3 values: 9 variants each) with
 * GET /exports/products over HTTP, against list-products page throughput (25 products a request) of the same
 * run and process. Standalone (`node --import tsx bench/export-products.ts [products] [pglite|postgres]`):
 * one export is one long request, which the autocannon harness cannot show as products/s.
 */
const count = Number(process.argv[2] ?? 20_000);
const engine = (process.argv[3] ?? 'postgres') as 'pglite' | 'postgres';
const say = (text: string) => process.stderr.write(`${text}\n`);

async function seedProducts(db: Parameters<typeof migrate>[0], storeId: string) {
  // Rows as createProduct writes them (9 variants, combinations as options generate them), in two statements.
  await sql`INSERT INTO products (store_id, id, title, handle, status, price, compare_price, total_stock, options, return_config, created_at, updated_at)
    SELECT ${storeId}, lpad(to_hex(g), 24, '0'), 'Product ' || g, 'product-' || g, 'active', 10 + g % 90, 120, 9,
      '[{"name":"Size","values":["S","M","L"]},{"name":"Color","values":["Red","Green","Blue"]}]', '{}', now(), now()
    FROM generate_series(1, ${count}) g`.execute(db);
  await sql`INSERT INTO variants (store_id, id, product_id, position, attributes, price, sale_price, stock, sku, created_at, updated_at)
    SELECT ${storeId}, lpad(to_hex(g), 16, '0') || lpad(to_hex(v), 8, '0'), lpad(to_hex(g), 24, '0'), v,
      jsonb_build_object('Size', (ARRAY['S','M','L'])[1 + v / 3], 'Color', (ARRAY['Red','Green','Blue'])[1 + v % 3]),
      10 + v, 120, v, 'product-' || g || '-' || v, now(), now()
    FROM generate_series(1, ${count}) g, generate_series(0, 8) v`.execute(db);
  await sql`ANALYZE products`.execute(db);
  await sql`ANALYZE variants`.execute(db);
}

async function listThroughput(url: string, token: string, seconds: number): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let pages = 0;
  while (performance.now() < until) {
    const response = await fetch(`${url}/api/v1/products?limit=25&page=${1 + (pages % 50)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await response.arrayBuffer();
    pages++;
  }
  return (pages * 25) / seconds;
}

async function exportOnce(url: string, token: string): Promise<{ seconds: number; lines: number; bytes: number }> {
  const started = performance.now();
  const response = await fetch(`${url}/api/v1/exports/products`, { headers: { authorization: `Bearer ${token}` } });
  let lines = 0;
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  return { seconds: (performance.now() - started) / 1000, lines, bytes };
}

const target = await createTarget(engine, process.env.BENCH_DATABASE_URL ?? null);
const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
try {
  await migrate(database.db);
  const store = await createStore(database.db, { slug: `bench-${randomBytes(3).toString('hex')}`, name: 'Bench' });
  const began = performance.now();
  await seedProducts(database.db, store.id);
  say(`seeded ${count} products x 9 variants in ${((performance.now() - began) / 1000).toFixed(1)} s (${target.describe})`);
  const config = {
    ...loadConfig({ STOREFRONT_DATA_DIR: target.dataDir, STOREFRONT_JWT_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent' }),
    rateLimit: 0,
    webhookWorker: false,
  };
  const app = await buildApp({ config, database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const adminId = newId();
  await database.db
    .insertInto('admins')
    .values({ store_id: store.id, id: adminId, email: 'bench@bench.test', password_hash: 'x' })
    .execute();
  const token = await issueAccessToken({ storeId: store.id, adminId }, config.jwtSecret, config.tokenTtl);
  await exportOnce(url, token); // warm
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await exportOnce(url, token));
  const best = runs.sort((a, b) => a.seconds - b.seconds)[1]; // the median of three
  const listRate = await listThroughput(url, token, 5);
  const exportRate = best.lines / best.seconds;
  const result = {
    engine,
    products: count,
    exportSeconds: Number(best.seconds.toFixed(2)),
    exportMb: Number((best.bytes / 1e6).toFixed(1)),
    exportProductsPerSecond: Math.round(exportRate),
    listProductsPerSecond: Math.round(listRate),
    ratio: Number((exportRate / listRate).toFixed(1)),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  await app.close();
} finally {
  await database.close();
  await target.drop();
}
