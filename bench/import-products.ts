import { randomBytes } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { buildApp } from '../src/app.js';
import { issueAccessToken } from '../src/auth/tokens.js';
import { loadConfig } from '../src/config.js';
import { openMigratedDatabase } from '../src/db/open-migrated.js';
import { newId } from '../src/shared/ids.js';
import { createStore } from '../src/stores/stores.service.js';
import { importLine as productLine, writeImportFile as writeFile } from './bulk.js';
import { createTarget } from './database.js';

/**
 * Bulk import of products against the API's own create, on one fresh database, over real HTTP:
 *   node --import tsx bench/import-products.ts [products=10000] [apiCreates=300]
 *   (BENCH_DATABASE_URL: a postgres server; else PGlite)
 * 1. create-product through POST /products (4 concurrent clients): products/s, the baseline;
 * 2. an NDJSON file of N products (2 options x 3 values, per-variant prices) POSTed to /imports, timed
 *    from the POST to the job's `succeeded`, while one client GETs products (p99 vs idle) and the process's
 *    RSS is sampled;
 * 3. the same file again (every line an update: 0 created).
 * The server runs in this process (its job runner too): RSS is the server's plus this small client's.
 */

const PRODUCTS = Number(process.argv[2] ?? 10_000);
const API_CREATES = Number(process.argv[3] ?? 300);

const p = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0;

async function main() {
  const target = await createTarget(process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite', process.env.BENCH_DATABASE_URL ?? null);
  const config = {
    ...loadConfig({ STOREFRONT_DATA_DIR: target.dataDir, STOREFRONT_JWT_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn' }),
    ...(target.databaseUrl ? { databaseUrl: target.databaseUrl } : {}),
    rateLimit: 0,
    demo: false,
    port: 0,
  };
  const database = await openMigratedDatabase(config);
  const app = await buildApp({ config, database, redisPrefix: `bench-import-${randomBytes(4).toString('hex')}:` });
  try {
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const store = await createStore(database.db, { slug: `bench-${randomBytes(4).toString('hex')}`, name: 'Bench' });
    const adminId = newId();
    await database.db
      .insertInto('admins')
      .values({ store_id: store.id, id: adminId, email: 'b@b.test', password_hash: 'unused' })
      .execute();
    const token = await issueAccessToken({ storeId: store.id, adminId }, config.jwtSecret, 36_000);
    const call = async (method: string, path: string, body?: string | Readable, type = 'application/json') => {
      const res = await fetch(`${url}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': type } : {}) },
        body: body as never,
        ...(body instanceof Readable ? { duplex: 'half' } : {}),
      } as RequestInit);
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
      return JSON.parse(text);
    };

    // 1. the API baseline: POST /products with the same bodies, 4 clients
    let next = PRODUCTS;
    const began = performance.now();
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < PRODUCTS + API_CREATES) await call('POST', '/products', JSON.stringify(productLine(next++)));
      }),
    );
    const apiRate = API_CREATES / ((performance.now() - began) / 1000);
    const someId = (await call('GET', '/products?limit=1')).data[0].id as string;
    const getLatencies = async (stop: () => boolean, max = Number.POSITIVE_INFINITY) => {
      const ms: number[] = [];
      while (!stop() && ms.length < max) {
        const t0 = performance.now();
        await call('GET', `/products/${someId}`);
        ms.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 20));
      }
      return ms;
    };
    const idle = await getLatencies(() => false, 200);

    // 2. the import
    const file = join(target.dataDir, 'bench-products.ndjson');
    await writeFile(file, PRODUCTS);
    const runImport = async () => {
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      }, 200);
      const t0 = performance.now();
      const posted = await call(
        'POST',
        '/imports?resource=products',
        Readable.from(createReadStream(file)) as never,
        'application/x-ndjson',
      );
      let job = posted.data;
      let done = false;
      const during = getLatencies(() => done);
      while (job.status === 'queued' || job.status === 'running') {
        await new Promise((r) => setTimeout(r, 250));
        job = (await call('GET', `/jobs/${job.id}`)).data;
      }
      const seconds = (performance.now() - t0) / 1000;
      done = true;
      clearInterval(sampler);
      return { job, seconds, rate: PRODUCTS / seconds, during: await during, rssGrowthMb: (rssPeak - rssBefore) / 1024 / 1024 };
    };
    const first = await runImport();
    const second = await runImport();
    const mb = (statSync(file).size / 1024 / 1024).toFixed(1);
    const lines = [
      `engine ${target.engine}, ${PRODUCTS} products (${mb} MB NDJSON, 9 variants each, per-variant prices); shared machine, server in this process`,
      `API create-product (4 clients, ${API_CREATES} products): ${apiRate.toFixed(1)} products/s`,
      ...[
        ['first import', first],
        ['re-import', second],
      ].map(([name, r]) => {
        const run = r as Awaited<ReturnType<typeof runImport>>;
        const { created, updated, failed, status } = run.job;
        return (
          `${name}: ${run.seconds.toFixed(1)} s, ${run.rate.toFixed(1)} products/s = ${(run.rate / apiRate).toFixed(2)} x API create; ` +
          `${status} created ${created} updated ${updated} failed ${failed}; RSS growth ${run.rssGrowthMb.toFixed(0)} MB; ` +
          `GET product during: p50 ${p(run.during, 0.5).toFixed(1)} ms p99 ${p(run.during, 0.99).toFixed(1)} ms (${run.during.length} requests)`
        );
      }),
      `GET product idle: p50 ${p(idle, 0.5).toFixed(1)} ms p99 ${p(idle, 0.99).toFixed(1)} ms; re-import / first import time ${(second.seconds / first.seconds).toFixed(2)}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await app.close();
    await database.close();
    await target.drop();
  }
}

await main();
