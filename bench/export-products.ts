import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { issueAccessToken } from '../src/auth/tokens.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { rebuildProductDocuments } from '../src/products/index.js';
import { newId } from '../src/shared/ids.js';
import { createStore } from '../src/stores/index.js';
import { createTarget } from './database.js';
import { formatProfile, summarizeProfile } from './profile.js';

/**
 * `export-products`: time to stream a whole store's products (2 options × 3 values: 9 variants each) with
 * GET /exports/products over HTTP, against list-products page throughput (25 products a request) of the same
 * run and process. Standalone (`node --import tsx bench/export-products.ts [products] [pglite|postgres]`):
 * one export is one long request, which the autocannon harness cannot show as products/s. A fourth argument
 * `shopify` times `?format=shopify` instead (the CSV layout: products counted from X-Total-Count).
 * The seeded products get their stored documents, as products written through the API have them
 * (BENCH_NO_DOCUMENTS=1: not, so every product is built from its rows). BENCH_CPU_PROF=<file.cpuprofile>: a
 * V8 CPU profile of the three timed exports only (not the seeding, nor the warm-up), summarized on stderr.
 */
const count = Number(process.argv[2] ?? 20_000);
const engine = (process.argv[3] ?? 'postgres') as 'pglite' | 'postgres';
const format = process.argv[4] ?? 'ndjson';
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

async function exportOnce(url: string, token: string): Promise<{ seconds: number; cpuSeconds: number; lines: number; bytes: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const query = format === 'ndjson' ? '' : `?format=${format}`;
  const response = await fetch(`${url}/api/v1/exports/products${query}`, { headers: { authorization: `Bearer ${token}` } });
  let lines = 0;
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    // indexOf, not a loop over every byte: the client's CPU counts in this process's, which is the export's figure
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
  }
  // server and client share this process: its CPU time is the export's, whatever else loads the machine
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6, lines, bytes };
}

const target = await createTarget(engine, process.env.BENCH_DATABASE_URL ?? null);
const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
try {
  await migrate(database.db);
  const store = await createStore(database.db, { slug: `bench-${randomBytes(3).toString('hex')}`, name: 'Bench' });
  const began = performance.now();
  await seedProducts(database.db, store.id);
  // every write through the API stores its product's document; rows seeded past it get theirs here
  if (!process.env.BENCH_NO_DOCUMENTS) await rebuildProductDocuments(database.db, store.id);
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
  const profiler = process.env.BENCH_CPU_PROF ? new Session() : null;
  profiler?.connect();
  await profiler?.post('Profiler.enable');
  await profiler?.post('Profiler.start');
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await exportOnce(url, token));
  if (profiler && process.env.BENCH_CPU_PROF) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(process.env.BENCH_CPU_PROF, JSON.stringify(profile));
    say(formatProfile(summarizeProfile(process.env.BENCH_CPU_PROF, 40), 30));
  }
  const best = runs.sort((a, b) => a.seconds - b.seconds)[1]; // the median of three
  const listRate = await listThroughput(url, token, 5);
  const exportRate = count / best.seconds;
  const result = {
    engine,
    format,
    products: count,
    lines: best.lines,
    exportSeconds: Number(best.seconds.toFixed(2)),
    exportMb: Number((best.bytes / 1e6).toFixed(1)),
    exportCpuSeconds: Number(best.cpuSeconds.toFixed(2)),
    productsPerCpuSecond: Math.round(count / best.cpuSeconds),
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
