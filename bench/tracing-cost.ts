import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { createOwnDatabase } from '../test/support/own-database.js';
import { seedStore } from '../test/support/storefront-client.js';
import { createThrowawayCluster, createThrowawayStandby } from '../test/support/throwaway-cluster.js';

/**
 * What tracing and the Requests log cost, and what a second process gives, measured side by side
 * (docs/observability.md, docs/performance.md, docs/scaling.md): GET /products/{id} from `storefront serve`
 * processes on one PostgreSQL, in rounds that take the variants in turn, so a busy machine's load falls on
 * all of them alike.
 *
 *   node --import tsx bench/tracing-cost.ts tracing     [rounds] [seconds]   off | on | none
 *   node --import tsx bench/tracing-cost.ts request-log [rounds] [seconds]   off | on
 *   node --import tsx bench/tracing-cost.ts processes   [rounds] [seconds]   one | two
 *   node --import tsx bench/tracing-cost.ts replicas    [rounds] [seconds]   primary | replica [| replica-redis]
 *
 * Each round's figures: requests/s, the server's CPU per response (srv ms/req) and its database backends'
 * (db ms/req, by application_name); COST_CPU_PROF_DIR=<dir> makes every server write a CPU profile there.
 * `request-log` with BASELINE_ROOT=<tree> adds `on-baseline`: the log on, served by that tree (a before/after).
 *
 * `on` exports every span (OTLP/HTTP protobuf) to a receiver here that drops them; `none` is the build
 * without any OpenTelemetry code (the tree of NO_OTEL_ROOT, e.g. `git archive` of the commit before
 * tracing, with node_modules linked). `two` is two processes with data dirs of their own, the load split
 * between them. `request-log`: STOREFRONT_REQUEST_LOG=false against the default (on; every request of the
 * run is logged, and the prune runs as in production). Needs DATABASE_URL (a PostgreSQL server; a database
 * is made and dropped). `replicas` needs none: a throwaway primary and a streaming standby of it
 * (test/support/throwaway-cluster.ts, no apply delay) on this machine; `primary` is a server without
 * STOREFRONT_REPLICA_URLS (today's code path: nothing of the routing is installed), `replica` one with the
 * standby, its reads routed there once caught up (the credential's remembered position in the process),
 * `replica-redis` the same with REDIS_URL's Redis holding the positions. Each round measures GET
 * /products/{id} and then the first page of GET /products (25 products) of every variant.
 */

const ROOT = new URL('..', import.meta.url).pathname;
const CONNECTIONS = 10;

interface Server {
  base: string;
  /** its connections' application_name (PGAPPNAME) */
  appName: string;
  child: ChildProcess;
  dataDir: string;
}

function startServer(root: string, env: Record<string, string>): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'storefront-cost-'));
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(DATABASE_URL|STOREFRONT_|OTEL_|PORT$)/.test(key)));
  // COST_CPU_PROF_DIR: each thread of each server writes a V8 CPU profile of its whole life there when it stops,
  // named CPU.<date>.<pid>.<thread>… (the main thread's is the largest; the pids are printed; bench/profile.ts reads them)
  const profile = process.env.COST_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.COST_CPU_PROF_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'src/cli/main.ts', 'serve'], {
    cwd: root,
    env: { ...inherited, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', STOREFRONT_DEMO: 'false', STOREFRONT_DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /"url":"(http:\/\/[^"]+)\/api\/v1"/.exec(out);
      if (match) resolve({ base: match[1], child, dataDir, appName: env.PGAPPNAME ?? '' });
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); 0 once it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux)
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

interface Measured {
  rps: number;
  /** the servers' CPU milliseconds per successful response: less at the mercy of other load than rps */
  cpuMs: number;
  /**
   * the database's CPU milliseconds per successful response: the variant's own backends from the start of
   * this round to the start of its next (so what it left to do after its round, its last batch and its
   * prune, counts as its own); autovacuum is reported apart
   */
  dbMs: number;
  ok: number;
}

/**
 * CPU of the backends of the run's database, by who they serve: each server connects with its variant's
 * name as application_name (PGAPPNAME), autovacuum workers are "autovacuum". pg_stat_activity's pids are
 * read every 200 ms and each pid's CPU from /proc (one seen first mid-run counts from then; one gone keeps
 * its last reading). `cpuOf` is the seconds used so far.
 */
function databaseCpu(admin: pg.Client) {
  const seen = new Map<number, { owner: string; first: number; last: number }>();
  const poll = async () => {
    const { rows } = await admin.query<{ pid: number; owner: string }>(
      `SELECT pid, CASE WHEN backend_type = 'autovacuum worker' THEN 'autovacuum' ELSE application_name END AS owner
       FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    for (const { pid, owner } of rows) {
      const now = cpuSeconds(pid);
      const known = seen.get(pid);
      if (!known || known.owner !== owner) seen.set(pid, { owner, first: now, last: now });
      else known.last = Math.max(known.last, now);
    }
  };
  let polling = poll();
  const timer = setInterval(() => {
    polling = polling.then(poll, poll);
  }, 200);
  return {
    async cpuOf(owner: string): Promise<number> {
      polling = polling.then(poll, poll);
      await polling;
      return [...seen.values()].filter((pid) => pid.owner === owner).reduce((sum, pid) => sum + pid.last - pid.first, 0);
    },
    stop: () => clearInterval(timer),
  };
}

/** Successful responses per second of `connections` spread over `bases` for `seconds`, and their CPU cost. */
async function measure(bases: string[], path: string, token: string, seconds: number, pids: number[]): Promise<Measured> {
  const cpuBefore = pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const runs = await Promise.all(
    bases.map((base) =>
      autocannon({
        url: `${base}${path}`,
        connections: Math.max(1, Math.round(CONNECTIONS / bases.length)),
        duration: seconds,
        headers: { authorization: `Bearer ${token}` },
      }),
    ),
  );
  const ok = runs.reduce((sum, run) => sum + run.requests.total - run.non2xx, 0);
  const cpu = pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0) - cpuBefore;
  return { rps: ok / seconds, cpuMs: (cpu * 1000) / Math.max(ok, 1), dbMs: 0, ok };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The database the servers use: a database of DATABASE_URL's server, or (replicas) a primary and its standby of our own. */
async function openTarget(mode: string) {
  if (mode === 'replicas') {
    const primary = await createThrowawayCluster();
    const standby = await createThrowawayStandby(primary);
    const drop = async () => {
      standby.destroy();
      primary.destroy();
    };
    return { url: primary.url, standby: standby.url, drop };
  }
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL is needed');
  const own = await createOwnDatabase(serverUrl, 'storefront_cost');
  return { url: own.url, standby: '', drop: () => own.drop() };
}

async function startVariants(
  mode: string,
  start: (root: string, extra?: Record<string, string>) => Promise<Server>,
  sinkUrl: string,
  standby: string,
) {
  const variants: Record<string, Server[]> = {};
  if (mode === 'tracing') {
    variants.off = [await start(ROOT)];
    variants.on = [await start(ROOT, { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl })];
    if (process.env.NO_OTEL_ROOT) variants.none = [await start(process.env.NO_OTEL_ROOT)];
  } else if (mode === 'request-log') {
    variants.off = [await start(ROOT, { STOREFRONT_REQUEST_LOG: 'false' })];
    variants.on = [await start(ROOT)];
    // the log as another tree has it (e.g. main's), measured in the same rounds
    if (process.env.BASELINE_ROOT) variants['on-baseline'] = [await start(process.env.BASELINE_ROOT)];
  } else if (mode === 'replicas') {
    variants.primary = [await start(ROOT)];
    variants.replica = [await start(ROOT, { STOREFRONT_REPLICA_URLS: standby })];
    const redis = process.env.REDIS_URL;
    if (redis) variants['replica-redis'] = [await start(ROOT, { STOREFRONT_REPLICA_URLS: standby, REDIS_URL: redis })];
  } else {
    const two = [await start(ROOT), await start(ROOT)];
    variants.one = [two[0]];
    variants.two = two;
  }
  return variants;
}

/** The paths measured: a product by id; with `replicas` also the first page of the list (25 products made). */
async function measuredPaths(mode: string, base: string, token: string): Promise<string[]> {
  let id = '';
  for (let n = 0; n < (mode === 'replicas' ? 25 : 1); n++) {
    const created = await fetch(`${base}/api/v1/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `Measured ${n}`, price: 10, options: [{ name: 'Size', values: ['S', 'M', 'L'] }] }),
    });
    id = (await created.json()).data.id;
  }
  const byId = `/api/v1/products/${id}`;
  return mode === 'replicas' ? [byId, '/api/v1/products?limit=25'] : [byId];
}

function report(results: Record<string, Measured[]>, label: string): void {
  const names = Object.keys(results);
  const base = names[0];
  const spread = (values: number[]) => `${median(values).toFixed(3)} (${Math.min(...values).toFixed(3)}–${Math.max(...values).toFixed(3)})`;
  for (const name of names) {
    const ratios = (of: (m: Measured) => number) => results[name].map((m, i) => of(m) / of(results[base][i]));
    const medianOf = (of: (m: Measured) => number) => median(results[name].map(of));
    process.stdout.write(
      `${label}${name}: median ${medianOf((m) => m.rps).toFixed(0)} req/s, srv ${medianOf((m) => m.cpuMs).toFixed(3)} ms/req, ` +
        `db ${medianOf((m) => m.dbMs).toFixed(3)} ms/req, srv+db ${medianOf((m) => m.cpuMs + m.dbMs).toFixed(3)} ms/req; ` +
        `per-round ratio to ${base}: req/s ${spread(ratios((m) => m.rps))}, srv ms/req ${spread(ratios((m) => m.cpuMs))}, ` +
        `srv+db ms/req ${spread(ratios((m) => m.cpuMs + m.dbMs))}\n`,
    );
  }
}

const loadAverage = () => loadavg()[0].toFixed(1);

async function main(): Promise<void> {
  const [mode = 'tracing', roundsArg = '5', secondsArg = '10'] = process.argv.slice(2);
  const target = await openTarget(mode);
  const sink = createServer((request, response) => request.resume().on('end', () => response.writeHead(200).end()));
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}`;
  const servers: Server[] = [];
  const admin = new pg.Client({ connectionString: target.url });
  await admin.connect();
  process.stdout.write(`load average ${loadAverage()} at the start\n`);
  try {
    const jwtSecret = randomBytes(32).toString('hex');
    const { token } = await seedStore(target.url, jwtSecret);
    const env = { DATABASE_URL: target.url, STOREFRONT_JWT_SECRET: jwtSecret, STOREFRONT_RATE_LIMIT: '0' };
    const start = async (root: string, extra: Record<string, string> = {}) => {
      const server = await startServer(root, { ...env, PGAPPNAME: `server-${servers.length + 1}`, ...extra });
      servers.push(server);
      return server;
    };
    const variants = await startVariants(mode, start, sinkUrl, target.standby);
    for (const [name, list] of Object.entries(variants))
      process.stdout.write(`${name}: pid ${list.map((server) => server.child.pid).join(', ')}\n`);
    const paths = await measuredPaths(mode, servers[0].base, token);
    const run = (name: string, path: string, seconds: number) =>
      measure(
        variants[name].map((server) => server.base),
        path,
        token,
        seconds,
        variants[name].map((server) => server.child.pid as number),
      );
    const names = Object.keys(variants);
    for (const name of names) for (const path of paths) await run(name, path, 2); // warm up
    const results = paths.map(() => Object.fromEntries(names.map((name) => [name, [] as Measured[]])));
    const database = databaseCpu(admin);
    const dbCpuOf = async (name: string) => {
      let sum = 0;
      for (const server of variants[name]) sum += await database.cpuOf(server.appName);
      return sum;
    };
    // each variant's last measurement and its database CPU when it began: settled when the variant runs again
    const open = new Map<string, { measured: Measured; cpu: number }>();
    const settle = async (name: string) => {
      const last = open.get(name);
      if (last) last.measured.dbMs = ((await dbCpuOf(name)) - last.cpu) * (1000 / Math.max(last.measured.ok, 1));
    };
    const autovacuumBefore = await database.cpuOf('autovacuum');
    let responses = 0;
    for (let round = 0; round < Number(roundsArg); round++) {
      // each round in another order, so no variant always follows the same one
      const order = names.map((_, i) => names[(i + round) % names.length]);
      for (const [p, path] of paths.entries()) {
        for (const name of order) {
          await settle(name);
          const cpu = await dbCpuOf(name);
          const measured = await run(name, path, Number(secondsArg));
          responses += measured.ok;
          open.set(name, { measured, cpu });
          results[p][name].push(measured);
        }
        const line = names.map((name) => {
          const last = results[p][name].at(-1);
          return `${name} ${last?.rps.toFixed(0)} req/s srv ${last?.cpuMs.toFixed(3)} ms/req`;
        });
        process.stdout.write(`round ${round + 1} ${path}: ${line.join(', ')}\n`);
      }
    }
    // what the last rounds left behind: the last batches (a second) and a prune (every 10 s)
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    for (const name of names) await settle(name);
    const autovacuum = (await database.cpuOf('autovacuum')) - autovacuumBefore;
    database.stop();
    process.stdout.write(
      `autovacuum of the run's database: ${((autovacuum * 1000) / Math.max(responses, 1)).toFixed(3)} ms per response of all variants\n`,
    );
    for (const [p, path] of paths.entries()) report(results[p], paths.length > 1 ? `${path} ` : '');
    process.stdout.write(`load average ${loadAverage()} at the end\n`);
  } finally {
    await admin.end();
    for (const server of servers) server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const server of servers) rmSync(server.dataDir, { recursive: true, force: true });
    sink.close();
    await target.drop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
