/**
 * The webhook delivery design's figures (docs/webhooks.md, docs/performance-history/notebook.md "Round 6"), each against a
 * baseline of the same run, on one engine:
 *
 * 1. write cost: POST /products on a store with 500 webhooks of its own, and on a store while another has
 *    500, with the old fan-out trigger (migrations/0020, re-created here for the baseline) and without it
 *    (deliveries made from the feed by the worker);
 * 2. delivery rate of 1,000 deliveries about 1,000 different records, with the per-record order check
 *    (record_id set) and without it (record_id null: the claim's NOT EXISTS is skipped), worker and
 *    receiver in this process.
 *
 * `npx tsx bench/webhook-design.ts` (PGlite) or `BENCH_DATABASE_URL=postgres://… npx tsx bench/webhook-design.ts`.
 * Ratios are what to read: the machine is shared and noisy.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { issueAccessToken } from '../src/auth/tokens.js';
import { loadConfig } from '../src/config.js';
import { openMigratedDatabase } from '../src/db/index.js';
import { newId } from '../src/shared/ids.js';
import { createStore } from '../src/stores/index.js';
import { startDeliveryWorker } from '../src/webhooks/worker.js';
import { createTarget } from './database.js';

const WRITES = Number(process.env.BENCH_WRITES ?? 60);
const DELIVERIES = 1000;

const target = await createTarget(process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite', process.env.BENCH_DATABASE_URL ?? null);
const base = loadConfig({
  STOREFRONT_DATA_DIR: target.dataDir,
  STOREFRONT_JWT_SECRET: randomBytes(32).toString('hex'),
  LOG_LEVEL: 'silent',
});
const config = {
  ...base,
  databaseUrl: target.databaseUrl,
  rateLimit: 0,
  webhookWorker: false,
  jobRunner: false,
  webhookAllowPrivate: true,
};
const database = await openMigratedDatabase(config);
const app = await buildApp({ config, database, redisPrefix: `bench-webhooks-${Date.now()}:` });
await app.ready();
const db = database.db;

async function newStore() {
  const store = await createStore(db, { slug: `b-${randomBytes(4).toString('hex')}`, name: 'Bench' });
  const adminId = newId();
  await db
    .insertInto('admins')
    .values({ store_id: store.id, id: adminId, email: `a@${store.id}.test`, password_hash: 'x' })
    .execute();
  return { id: store.id, token: await issueAccessToken({ storeId: store.id, adminId }, config.jwtSecret, config.tokenTtl) };
}

async function call(token: string, method: string, url: string, body?: object) {
  const response = await app.inject({
    method: method as 'POST',
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${token}` },
    payload: body,
  });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return JSON.parse(response.body);
}

/** Mean ms of one POST /products, sequential. */
async function writeCost(token: string): Promise<number> {
  for (let i = 0; i < 10; i++) await call(token, 'POST', '/products', { title: `warm ${i}` });
  const started = performance.now();
  for (let i = 0; i < WRITES; i++) await call(token, 'POST', '/products', { title: `Bench ${i}` });
  return (performance.now() - started) / WRITES;
}

const trigger = readFileSync(new URL('../migrations/0020_webhook_fan_out_per_row.sql', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => !line.startsWith('DROP '))
  .join('\n');

const withHooks = await newStore();
const quiet = await newStore();
const hooks = Array.from({ length: 500 }, (_, i) => ({
  store_id: withHooks.id,
  id: newId(),
  url: `https://hooks.example.test/${i}`,
  events: ['*'],
  secret: 'whsec_x',
}));
await db.insertInto('webhooks').values(hooks).execute();

// Interleaved rounds (trigger on, trigger off, and again): the machine's noise spreads over both sides.
const ROUNDS = 3;
const results: [string, number, number][] = [];
for (const [name, token] of [
  ['POST /products, store with 500 webhooks', withHooks.token],
  ['POST /products, another store has 500 webhooks', quiet.token],
] as const) {
  let before = 0;
  let after = 0;
  for (let round = 0; round < ROUNDS; round++) {
    await sql.raw(trigger).execute(db);
    before += await writeCost(token);
    await sql`DROP TRIGGER events_webhook_fan_out ON events; DROP FUNCTION webhook_fan_out()`.execute(db);
    after += await writeCost(token);
  }
  results.push([name, before / ROUNDS, after / ROUNDS]);
}
await db.deleteFrom('webhook_deliveries').execute();
await db.deleteFrom('webhooks').execute();

/** ms until DELIVERIES deliveries of one webhook reach a receiver on 127.0.0.1 (worker in this process). */
async function deliveryTime(ordered: boolean): Promise<number> {
  const store = await newStore();
  let received = 0;
  let done: () => void = () => {};
  const all = new Promise<void>((resolve) => {
    done = resolve;
  });
  const server = http.createServer((_request, response) => {
    response.end('ok');
    if (++received === DELIVERIES) done();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const webhookId = newId();
  await db
    .insertInto('webhooks')
    .values({ store_id: store.id, id: webhookId, url, events: ['*'], secret: `whsec_${randomBytes(32).toString('base64')}` })
    .execute();
  const rows = Array.from({ length: DELIVERIES }, () => {
    const recordId = newId();
    return {
      store_id: store.id,
      id: newId(),
      webhook_id: webhookId,
      event_id: newId(),
      type: 'product.created',
      payload: JSON.stringify({ type: 'product.created', data: { id: recordId } }),
      record_id: ordered ? recordId : null,
      next_attempt_at: new Date(),
    };
  });
  for (let i = 0; i < rows.length; i += 250)
    await db
      .insertInto('webhook_deliveries')
      .values(rows.slice(i, i + 250))
      .execute();
  const started = performance.now();
  const stop = startDeliveryWorker({ db, listen: database.listen, config, log: { warn: () => {}, debug: () => {} } });
  await all;
  const elapsed = performance.now() - started;
  await stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return elapsed;
}

// Interleaved, three times each.
const unordered: number[] = [];
const ordered: number[] = [];
for (let round = 0; round < 3; round++) {
  unordered.push(await deliveryTime(false));
  ordered.push(await deliveryTime(true));
}
const rate = (times: number[]) => (DELIVERIES * times.length) / (times.reduce((a, b) => a + b, 0) / 1000);

console.log(`engine: ${target.engine}`);
console.log('| write | fan-out trigger (before) ms | from the feed (after) ms | after / before |');
console.log('| --- | ---: | ---: | ---: |');
for (const [name, before, after] of results)
  console.log(`| ${name} | ${before.toFixed(2)} | ${after.toFixed(2)} | ${(after / before).toFixed(2)} |`);
console.log(`| delivery of ${DELIVERIES} different records | no order check | order per record | ordered / unordered |`);
console.log(
  `| deliveries/s | ${rate(unordered).toFixed(0)} | ${rate(ordered).toFixed(0)} | ${(rate(ordered) / rate(unordered)).toFixed(2)} |`,
);

await app.close();
await database.close();
await target.drop();
