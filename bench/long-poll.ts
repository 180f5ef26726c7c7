/**
 * What held long polls cost (docs/performance-history/notebook.md, "Long polls"): a server process with N requests held in
 * `GET /events?wait=60`, against the same process idle (the baseline of the same run): its RSS (the process
 * tree: on PGlite the engine's worker thread is in it), its database connections, and how long after a
 * commit the waiters are answered (p50/p99 over every waiter of every round, from the moment the writes that
 * commit are sent; a single waiter's wake-up is measured the same way as the baseline).
 *
 * The server holds at most 10 long polls per credential and 50 per store (src/events/long-poll-gate.ts), so the
 * N waiters are spread over as many stores as that takes, each with an API key per 10 waiters; a round writes
 * once in every store at the same moment.
 *
 *   node --import tsx bench/long-poll.ts [--engine postgres|pglite] [--waiters 1000] [--rounds 5]
 *   (postgres: DATABASE_URL of a server where it may create and drop its own database; default 127.0.0.1)
 *
 * A report, never a pass/fail test.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { LONG_POLLS_PER_CREDENTIAL, LONG_POLLS_PER_STORE } from '../src/events/long-poll-gate.js';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'postgres' },
    waiters: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '5' },
  },
});
const engine = values.engine as 'postgres' | 'pglite';
const waiters = Number(values.waiters);
const rounds = Number(values.rounds);
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BIN = new URL('../bin/storefront.mjs', import.meta.url).pathname;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

// biome-ignore lint/suspicious/noExplicitAny: the bench reads a few fields of JSON answers
function request(port: number, method: string, path: string, token: string | null, body?: object): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const payload = body ? JSON.stringify(body) : undefined;
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: `/api/v1${path}`,
        agent,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** RSS of a process and its descendants, MB. */
function treeRssMb(root: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  let kb = 0;
  const walk = (pid: number) => {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(root);
  return kb / 1024;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** A store of the bench: its admin's token, a key per 10 waiters (events:read and products:read, so it sees the writes), and its feed's end. */
async function benchStore(port: number, slug: string, password: string) {
  const admin = (await request(port, 'POST', '/auth', null, { storeSlug: slug, email: `a@${slug}.test`, password })).body.data
    .accessToken as string;
  const keys: string[] = [];
  for (let i = 0; i < LONG_POLLS_PER_STORE / LONG_POLLS_PER_CREDENTIAL; i++) {
    const created = await request(port, 'POST', '/api-keys', admin, { name: `waiter ${i}`, scopes: ['events:read', 'products:read'] });
    keys.push(created.body.data.key);
  }
  const store = {
    admin,
    keys,
    cursor: (await request(port, 'GET', '/events?limit=250', admin)).body.pagination.nextCursor as string,
    /** The feed's end now: read on until a page is empty (a write of the round before may have come late). */
    async drain(): Promise<void> {
      for (;;) {
        const { body } = await request(port, 'GET', `/events?limit=250&cursor=${encodeURIComponent(store.cursor)}`, admin);
        store.cursor = body.pagination.nextCursor;
        if (!body.data.length) return;
      }
    },
  };
  // a few products, so the feed has a position and the process is warm
  for (let i = 0; i < 5; i++) await request(port, 'POST', '/products', admin, { title: `warm ${i}`, price: 1 });
  await store.drain();
  return store;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'long-poll-bench-'));
  const dbName = `long_poll_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  const databaseUrl = engine === 'postgres' ? adminUrl.replace(/\/[^/]*$/, `/${dbName}`) : undefined;
  if (engine === 'postgres') {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
  }
  const port = 20000 + Math.floor(Math.random() * 20000);
  const env = {
    ...process.env,
    STOREFRONT_DATA_DIR: dataDir,
    STOREFRONT_JWT_SECRET: randomBytes(32).toString('hex'),
    STOREFRONT_DEMO: 'false',
    STOREFRONT_RATE_LIMIT: '0',
    STOREFRONT_MAX_CONNECTIONS: String(waiters * 2 + 100), // long polls may take half
    STOREFRONT_WEBHOOK_WORKER: 'false',
    STOREFRONT_JOB_RUNNER: 'false',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  delete (env as Record<string, string | undefined>).REDIS_URL;
  const slugs = Array.from({ length: Math.ceil(waiters / LONG_POLLS_PER_STORE) }, () => `lp-${randomBytes(3).toString('hex')}`);
  const password = 'long-secret-1';
  execFileSync(process.execPath, [BIN, 'migrate'], { env, stdio: 'ignore' });
  for (const slug of slugs) {
    execFileSync(
      process.execPath,
      [BIN, 'stores', 'create', '--slug', slug, '--name', slug, '--admin-email', `a@${slug}.test`, '--admin-password', password],
      { env, stdio: 'ignore' },
    );
  }
  const server = spawn(process.execPath, [BIN, 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    for (let tries = 0; ; tries++) {
      const ok = await request(port, 'GET', '/openapi.json', null).catch(() => null);
      if (ok?.status === 200) break;
      if (tries > 600) throw new Error('server did not start');
      await sleep(100);
    }
    const connections = async () => {
      if (engine !== 'postgres') return 0;
      const { rows } = await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [dbName]);
      return rows[0].n as number;
    };
    const stores: Awaited<ReturnType<typeof benchStore>>[] = [];
    for (const slug of slugs) stores.push(await benchStore(port, slug, password));

    /** n waiters from each store's feed end, spread over the stores and their keys; a write in every store at once. */
    async function round(
      n: number,
    ): Promise<{ latencies: number[]; afterCommit: number[]; rssMb: number; connections: number; writeMs: number }> {
      for (const store of stores) await store.drain();
      const waitingStores = stores.slice(0, Math.ceil(n / LONG_POLLS_PER_STORE));
      let sent = 0;
      const answered = Array.from({ length: n }, (_, i) => {
        const store = waitingStores[i % waitingStores.length];
        const key = store.keys[Math.floor(i / waitingStores.length) % store.keys.length];
        return request(port, 'GET', `/events?limit=250&wait=60&cursor=${encodeURIComponent(store.cursor)}`, key).then((reply) => {
          if (reply.status !== 200 || reply.body.data.length === 0)
            throw new Error(`waiter: ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`);
          if (!sent) throw new Error("a waiter was answered before the write: the round did not start at the feed's end");
          return Date.now() - sent;
        });
      });
      await sleep(Math.max(2000, n * 3)); // every waiter held (they were read, found nothing, and wait)
      const rssMb = treeRssMb(server.pid as number);
      const held = await connections();
      sent = Date.now();
      await Promise.all(waitingStores.map((store) => request(port, 'POST', '/products', store.admin, { title: 'wake', price: 1 })));
      const writeMs = Date.now() - sent;
      const latencies = await Promise.all(answered);
      // after the writes' answers (their commits acknowledged): an answer that came first counts as 0
      const afterCommit = latencies.map((ms) => Math.max(0, ms - writeMs));
      return { latencies, afterCommit, rssMb, connections: held, writeMs };
    }

    const idleRss = treeRssMb(server.pid as number);
    const idleConnections = await connections();
    const single: number[] = [];
    for (let i = 0; i < rounds; i++) single.push(...(await round(1)).latencies);
    const results = [];
    for (let i = 0; i < rounds; i++) results.push(await round(waiters));
    const all = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
    single.sort((a, b) => a - b);
    const peakRss = Math.max(...results.map((r) => r.rssMb));
    const report = {
      engine,
      waiters,
      rounds,
      idle: { rssMb: +idleRss.toFixed(1), connections: idleConnections },
      held: {
        rssMb: +peakRss.toFixed(1),
        rssPerWaiterKb: +(((peakRss - idleRss) * 1024) / waiters).toFixed(1),
        connections: Math.max(...results.map((r) => r.connections)),
      },
      wakeMs: { p50: percentile(all, 50), p99: percentile(all, 99), max: all.at(-1) },
      wakeAfterCommitMs: (() => {
        const sorted = results.flatMap((r) => r.afterCommit).sort((a, b) => a - b);
        return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) };
      })(),
      p99PerRoundMs: results.map((r) =>
        percentile(
          [...r.latencies].sort((a, b) => a - b),
          99,
        ),
      ),
      singleWaiterWakeMs: { p50: percentile(single, 50), max: single.at(-1) },
      writeMs: results.map((r) => r.writeMs),
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    agent.destroy();
    if (engine === 'postgres') {
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
