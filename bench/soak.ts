import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import autocannon, { type Request } from 'autocannon';
import { createTarget } from './database.js';
import { type BuildMode, startServer } from './processes.js';
import { SCENARIOS, type ScenarioContext } from './scenarios.js';
import { seed } from './seed/seed.js';

/**
 * Memory soak (docs/performance-history/notebook.md, "Memory over time"): the real server in PostgreSQL mode under a
 * bounded mixed load for a few minutes, its RSS and heap sampled every few seconds, to see whether
 * memory plateaus. Not part of `npm run bench`: one long run, one question.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
 *     npx tsx bench/soak.ts [--minutes 5] [--connections 10] [--build compiled|tsx] [--env KEY=VALUE ...]
 */

interface SoakOptions {
  minutes: number;
  connections: number;
  build: BuildMode;
  env: Record<string, string>;
  logins: number;
}

function parse(argv: string[]): SoakOptions {
  const options: SoakOptions = { minutes: 5, connections: 10, build: 'compiled', env: {}, logins: 5 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, value] = [argv[i], argv[i + 1] ?? ''];
    if (flag === '--minutes') options.minutes = Number(value);
    else if (flag === '--connections') options.connections = Number(value);
    else if (flag === '--build') options.build = value as BuildMode;
    else if (flag === '--logins') options.logins = Number(value);
    else if (flag === '--env') {
      const [key, ...rest] = value.split('=');
      options.env[key] = rest.join('=');
    } else throw new Error(`unknown flag ${flag}`);
    i++;
  }
  return options;
}

/** Every scenario but the login, interleaved: each connection walks reads and writes in turn. */
function mixedRequests(ctx: ScenarioContext): Request[] {
  const names = [
    'get-product',
    'list-products',
    'get-order',
    'create-order',
    'search-products',
    'get-customer',
    'patch-product-price',
    'create-product',
  ];
  return names.flatMap((name) => SCENARIOS.find((s) => s.name === name)?.requests(ctx) ?? []);
}

/** Logins at a steady rate from ever new loopback addresses (the per-address login limit is 30 a minute). */
function loginLoop(url: URL, body: string, perSecond: number): () => void {
  let n = 0;
  const timer = setInterval(() => {
    n += 1;
    const request = http.request({
      host: url.hostname,
      port: url.port,
      path: '/api/v1/auth',
      method: 'POST',
      localAddress: `127.2.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`,
      headers: { 'content-type': 'application/json' },
    });
    request.on('response', (response) => response.resume());
    request.on('error', () => undefined);
    request.end(body);
  }, 1000 / perSecond);
  return () => clearInterval(timer);
}

function memoryOf(pid: number): { rssMb: number; anonMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), anonMb: Math.round(kb('RssAnon') / 1024) };
}

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  const target = await createTarget('postgres', process.env.BENCH_DATABASE_URL ?? null);
  const outDir = new URL('./results/', import.meta.url).pathname;
  mkdirSync(outDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  try {
    const info = await seed(target, 2000);
    const server = await startServer(target, {
      jwtSecret: randomBytes(32).toString('hex'),
      logFile: join(outDir, `soak-${stamp}.log`),
      build: options.build,
      env: options.env,
    });
    const ctx: ScenarioContext = { seed: info, credential: info.apiKey };
    const samples: Record<string, number | string>[] = [];
    const started = Date.now();
    const sample = async () => {
      const inside = await server.peer.request<{ heapUsedMb: number; heapTotalMb: number; externalMb: number }>('report');
      const row = {
        s: Math.round((Date.now() - started) / 1000),
        ...memoryOf(server.pid),
        heapUsedMb: Math.round(inside.heapUsedMb),
        heapTotalMb: Math.round(inside.heapTotalMb),
        externalMb: Math.round(inside.externalMb),
      };
      samples.push(row);
      process.stderr.write(`${JSON.stringify(row)}\n`);
    };
    await sample();
    const sampler = setInterval(() => void sample(), 10_000);
    const body = JSON.stringify({ storeSlug: info.storeSlug, email: info.adminEmail, password: info.adminPassword });
    const stopLogins = options.logins > 0 ? loginLoop(new URL(server.url), body, options.logins) : () => undefined;
    const result = await autocannon({
      url: server.url,
      connections: options.connections,
      duration: options.minutes * 60,
      requests: mixedRequests(ctx),
      timeout: 60,
    });
    stopLogins();
    clearInterval(sampler);
    await sample();
    // Idle for 30 s after the load: what the process gives back.
    await new Promise((resolve) => setTimeout(resolve, 30_000));
    await sample();
    await server.stop();
    const summary = {
      options,
      requests: result.requests.total,
      rps: result.requests.average,
      non2xx: result.non2xx,
      errors: result.errors,
      samples,
    };
    const file = join(outDir, `soak-${stamp}.json`);
    writeFileSync(file, JSON.stringify(summary, null, 2));
    process.stdout.write(`${JSON.stringify({ ...summary, samples: undefined })}\nresults: ${file}\n`);
  } finally {
    await target.drop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`soak: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
