import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { createApiKey } from '../src/api-keys/index.js';
import { type Db, openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { createStore } from '../src/stores/index.js';
import { type BenchTarget, createTarget } from './database.js';
import type { Engine } from './options.js';
import { type BuildMode, startServer } from './processes.js';
import { PRODUCT_OPTIONS, productFixture } from './seed/fixtures.js';

/**
 * Sustained writes into a fresh store (docs/performance-history/notebook.md, "Round 2"): products created through the
 * API into an empty store, as a catalog sync into a new store does, with no maintenance daemon
 * (autovacuum is switched off on every table of the bench database), reporting the rate per slice
 * of products. The question: does the rate hold as the store grows, or does it collapse?
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
 *     npx tsx bench/fresh-writes.ts [--engine postgres|pglite] [--products 5000] [--every 1000]
 *       [--connections 8] [--build compiled|tsx] [--env KEY=VALUE ...]
 */

interface Options {
  engine: Engine;
  products: number;
  every: number;
  connections: number;
  build: BuildMode;
  env: Record<string, string>;
}

function parse(argv: string[]): Options {
  const options: Options = { engine: 'postgres', products: 5000, every: 1000, connections: 8, build: 'compiled', env: {} };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1] ?? ''];
    if (flag === '--engine') options.engine = value as Engine;
    else if (flag === '--products') options.products = Number(value);
    else if (flag === '--every') options.every = Number(value);
    else if (flag === '--connections') options.connections = Number(value);
    else if (flag === '--build') options.build = value as BuildMode;
    else if (flag === '--env') {
      const [key, ...rest] = value.split('=');
      options.env[key] = rest.join('=');
    } else throw new Error(`unknown flag ${flag}`);
  }
  return options;
}

/** Autovacuum off on this database's tables, whatever the server's setting: the service must cope alone. */
async function disableAutovacuum(db: Db): Promise<string> {
  const { rows } = await sql<{ name: string }>`SELECT relname AS name FROM pg_class
    WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace`.execute(db);
  for (const { name } of rows) await sql`ALTER TABLE ${sql.table(name)} SET (autovacuum_enabled = false)`.execute(db);
  const setting = await sql<{ autovacuum: string }>`SHOW autovacuum`.execute(db);
  return setting.rows[0]?.autovacuum ?? '?';
}

/** A migrated database with one store and an API key, nothing else: no product, no ANALYZE. */
async function prepare(target: BenchTarget): Promise<{ apiKey: string; autovacuum: string }> {
  const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir, poolSize: 1 });
  try {
    await migrate(database.db);
    const store = await createStore(database.db, { slug: 'fresh', name: 'Fresh store' });
    const { key } = await createApiKey(database.db, store.id, { name: 'bench', scopes: ['*'] });
    const autovacuum = target.engine === 'postgres' ? await disableAutovacuum(database.db) : 'none (embedded)';
    return { apiKey: key, autovacuum };
  } finally {
    await database.close();
  }
}

interface Slice {
  upTo: number;
  seconds: number;
  perSecond: number;
  ofFirst: number;
}

/** Creates `products` products with `connections` concurrent clients; the rate of every `every` completions. */
async function load(url: string, apiKey: string, options: Options): Promise<{ slices: Slice[]; failures: number }> {
  let sent = 0;
  const body = () => JSON.stringify({ ...productFixture(sent++), options: PRODUCT_OPTIONS });
  const slices: Slice[] = [];
  let done = 0;
  let failures = 0;
  let sliceStart = performance.now();
  let finished: (error: Error | null) => void = () => undefined;
  const ended = new Promise<void>((resolve, reject) => {
    finished = (error) => (error ? reject(error) : resolve());
  });
  const instance = autocannon(
    {
      url,
      connections: options.connections,
      amount: options.products,
      timeout: 120,
      requests: [
        {
          method: 'POST',
          path: '/api/v1/products',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          setupRequest: (request) => ({ ...request, body: body() }),
        },
      ],
    },
    (error) => finished(error ?? null),
  );
  instance.on('response', (_client, status) => {
    if (status !== 201) failures += 1;
    done += 1;
    if (done % options.every !== 0) return;
    const seconds = (performance.now() - sliceStart) / 1000;
    const perSecond = Math.round((options.every / seconds) * 10) / 10;
    const slice = {
      upTo: done,
      seconds: Math.round(seconds * 10) / 10,
      perSecond,
      ofFirst: Math.round((perSecond / (slices[0]?.perSecond ?? perSecond)) * 100) / 100,
    };
    slices.push(slice);
    process.stderr.write(`${JSON.stringify(slice)}\n`);
    sliceStart = performance.now();
  });
  await ended;
  return { slices, failures };
}

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  const target = await createTarget(options.engine, process.env.BENCH_DATABASE_URL ?? null);
  const outDir = new URL('./results/', import.meta.url).pathname;
  mkdirSync(outDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  try {
    const { apiKey, autovacuum } = await prepare(target);
    process.stderr.write(`fresh store on ${target.describe}; server autovacuum: ${autovacuum}, off on every bench table\n`);
    const server = await startServer(target, {
      jwtSecret: randomBytes(32).toString('hex'),
      logFile: join(outDir, `fresh-writes-${stamp}.log`),
      build: options.build,
      env: options.env,
    });
    const result = await load(server.url, apiKey, options);
    await server.stop();
    const file = join(outDir, `fresh-writes-${options.engine}-${stamp}.json`);
    writeFileSync(file, JSON.stringify({ options, autovacuum, ...result }, null, 2));
    const rows = result.slices.map((s) => `| ${s.upTo.toLocaleString('en')} | ${s.perSecond} | ${s.ofFirst} |`);
    process.stdout.write(`| products | created/s | of the first slice |\n| ---: | ---: | ---: |\n${rows.join('\n')}\n`);
    process.stdout.write(`failures: ${result.failures}\nresults: ${file}\n`);
  } finally {
    await target.drop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`fresh-writes: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
