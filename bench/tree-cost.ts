import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '../test/support/server-process.js';
import { createTarget } from './database.js';
import { median } from './measure.js';
import { SCALES, type ScaleName } from './options.js';
import { SCENARIOS } from './scenarios.js';
import { seed } from './seed/seed.js';
import { createSampler, type Sampler } from './system.js';

/**
 * Two builds of the service side by side on one seeded PostgreSQL database: two trees (`git worktree add
 * --detach <dir> <commit>`, node_modules linked), each `storefront serve` from its sources (tsx), in rounds
 * that take the two in turn (each round in the other order), so a loaded machine's load falls on both alike.
 * Per round and request: the server's CPU and its database backends' CPU.
 *
 *   BENCH_DATABASE_URL=postgres://… node --import tsx bench/tree-cost.ts <tree> <older tree> [rounds] [seconds] [scale]
 *
 * The database is migrated and seeded by this checkout (bench/seed): the first tree's migrations, which must
 * include the second's, so neither server applies any and both read the same rows through the same indexes:
 * what differs is the code. Reads only: get a product by id, the first list page, a search matching ~1%.
 */

const CONNECTIONS = 10;
const MEASURED = ['get-product', 'list-products', 'search-products'];

interface Server {
  name: string;
  base: string;
  child: ChildProcess;
  dataDir: string;
  sampler?: Sampler;
}

interface Round {
  rps: number;
  srvMs: number;
  dbMs: number;
  load: number;
}

async function startServer(name: string, root: string, env: Record<string, string>): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'storefront-tree-cost-'));
  const port = await freePort();
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(DATABASE_URL|REDIS_URL|STOREFRONT_|OTEL_|PORT$)/.test(key)),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
    cwd: root,
    env: {
      ...inherited,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      STOREFRONT_DEMO: 'false',
      STOREFRONT_DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name}: the server exited with ${child.exitCode}`);
    if (
      await fetch(`${base}/readyz`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return { name, base, child, dataDir };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${name}: not ready within 180 s`);
}

/** CPU milliseconds (user + system) a process has used so far, from /proc (Linux, 100 ticks a second). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** One round of `urls` (one drawn per request) against `server`: its rate, its CPU and its database's per request. */
async function measure(server: Server, urls: string[], apiKey: string, seconds: number): Promise<Round> {
  const pick = () => urls[Math.floor(Math.random() * urls.length)];
  await server.sampler?.start();
  const before = cpuMs(server.child.pid as number);
  const run = await autocannon({
    url: server.base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'GET',
        path: pick(),
        headers: { authorization: `Bearer ${apiKey}` },
        setupRequest: (request) => ({ ...request, path: pick() }),
      },
    ],
  });
  const srv = cpuMs(server.child.pid as number) - before;
  const system = await server.sampler?.stop();
  const ok = Math.max(1, run.requests.total - run.non2xx);
  if (run.non2xx) process.stderr.write(`${server.name}: ${run.non2xx} answers that were not 2xx\n`);
  return { rps: ok / seconds, srvMs: srv / ok, dbMs: (system?.dbCpuMs ?? 0) / ok, load: loadavg()[0] };
}

const fixed = (value: number, digits: number) => value.toFixed(digits);
const spread = (values: number[]) => `${fixed(median(values), 2)} (${fixed(Math.min(...values), 2)}–${fixed(Math.max(...values), 2)})`;

function report(scenario: string, results: Record<string, Round[]>): string {
  const [mine, other] = Object.keys(results);
  const lines = Object.entries(results).map(
    ([name, rounds]) =>
      `| ${scenario} | ${name} | ${fixed(median(rounds.map((r) => r.rps)), 0)} | ${fixed(median(rounds.map((r) => r.srvMs)), 3)} | ` +
      `${fixed(median(rounds.map((r) => r.dbMs)), 3)} |`,
  );
  const ratio = (pick: (r: Round) => number) => spread(results[mine].map((r, i) => pick(r) / pick(results[other][i])));
  const loads = Object.values(results).flatMap((rounds) => rounds.map((r) => r.load));
  return (
    `${lines.join('\n')}\n` +
    `  ${mine}/${other} per round, median (range): req/s ${ratio((r) => r.rps)}, srv ms/req ${ratio((r) => r.srvMs)}, ` +
    `db ms/req ${ratio((r) => r.dbMs)}; load average ${fixed(Math.min(...loads), 1)}–${fixed(Math.max(...loads), 1)}`
  );
}

async function main(): Promise<void> {
  const [root, otherRoot, roundsArg = '5', secondsArg = '8', scaleArg = '10k'] = process.argv.slice(2);
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!root || !otherRoot || !serverUrl)
    throw new Error('usage: BENCH_DATABASE_URL=… node --import tsx bench/tree-cost.ts <tree> <older tree> [rounds] [seconds] [scale]');
  const target = await createTarget('postgres', serverUrl);
  const servers: Server[] = [];
  try {
    process.stderr.write(`seeding ${scaleArg} into ${target.describe}\n`);
    const info = await seed(target, SCALES[scaleArg as ScaleName]);
    const env = {
      DATABASE_URL: target.databaseUrl as string,
      STOREFRONT_JWT_SECRET: randomBytes(32).toString('hex'),
      STOREFRONT_RATE_LIMIT: '1000000',
    };
    servers.push(await startServer('this', root, env), await startServer('other', otherRoot, env));
    for (const [i, server] of servers.entries()) {
      const pids = { server: server.child.pid as number, ceiling: servers[1 - i].child.pid as number, driver: process.pid };
      server.sampler = createSampler(target.databaseUrl, pids);
    }
    const context = { seed: info, credential: info.apiKey };
    const scenarios = SCENARIOS.filter((scenario) => MEASURED.includes(scenario.name));
    const results = scenarios.map(() => ({ this: [] as Round[], other: [] as Round[] }));
    for (const scenario of scenarios) for (const server of servers) await measure(server, scenario.urls?.(context) ?? [], info.apiKey, 3);
    for (let round = 0; round < Number(roundsArg); round++) {
      const order = round % 2 ? [servers[1], servers[0]] : servers;
      for (const [s, scenario] of scenarios.entries()) {
        for (const server of order)
          results[s][server.name as 'this' | 'other'].push(
            await measure(server, scenario.urls?.(context) ?? [], info.apiKey, Number(secondsArg)),
          );
        const last = (name: 'this' | 'other') => results[s][name].at(-1) as Round;
        process.stderr.write(
          `round ${round + 1} ${scenario.name}: ` +
            (['this', 'other'] as const)
              .map(
                (name) =>
                  `${name} ${fixed(last(name).rps, 0)} req/s srv ${fixed(last(name).srvMs, 3)} db ${fixed(last(name).dbMs, 3)} ms/req`,
              )
              .join(', ') +
            `, load ${fixed(loadavg()[0], 1)}\n`,
        );
      }
    }
    process.stdout.write(
      `this: ${root}\nother: ${otherRoot}\n${scaleArg} products, ${CONNECTIONS} connections, ${roundsArg} rounds of ${secondsArg} s\n`,
    );
    process.stdout.write(`| scenario | tree | req/s | srv ms/req | db ms/req |\n| --- | --- | ---: | ---: | ---: |\n`);
    for (const [s, scenario] of scenarios.entries()) process.stdout.write(`${report(scenario.name, results[s])}\n`);
  } finally {
    for (const server of servers) {
      await server.sampler?.close();
      server.child.kill('SIGTERM');
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const server of servers) rmSync(server.dataDir, { recursive: true, force: true });
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
