import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import { existsSync, openSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { freePort } from '../test/support/server-process.js';
import type { BenchTarget } from './database.js';
import { type IpcPeer, ipcPeer } from './ipc.js';

/** The three child processes of a run: the server under test, the ceiling server, the load driver. */

const ROOT = new URL('..', import.meta.url).pathname;
const INSTRUMENT = new URL('./instrument.mjs', import.meta.url).href;
const TSX = ['--import', 'tsx'];

/**
 * The Node flags and environment the launcher (bin/storefront.mjs) starts the server with, read from its `#!` line
 * (`env -S NAME=value node --flag …`), so the bench measures the server as users run it: each checkout's own (a
 * --baseline's flags are its launcher's, so a change of flags is measured against the old ones). A NODE_OPTIONS given
 * with --server-env replaces the flags (flags on the command line would otherwise win over it); a name given with
 * --server-env replaces the launcher's value.
 */
function launcherSetup(env: Record<string, string>, root: string): { flags: string[]; env: Record<string, string> } {
  const words = readFileSync(`${root}bin/storefront.mjs`, 'utf8').split('\n', 1)[0].split(/\s+/);
  const assignments = words.filter((word) => /^[A-Z_][A-Z0-9_]*=/.test(word)).map((word) => word.split(/=(.*)/s, 2));
  return {
    flags: env.NODE_OPTIONS !== undefined ? [] : words.filter((word) => word.startsWith('--')),
    env: Object.fromEntries(assignments),
  };
}

export interface Child {
  name: string;
  process: ChildProcess;
  peer: IpcPeer;
  /** SIGTERM and wait; SIGKILL after `graceMs` */
  stop(graceMs?: number): Promise<void>;
}

export interface ServerChild extends Child {
  url: string;
  pid: number;
}

function wrap(name: string, child: ChildProcess): Child {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    process: child,
    peer: ipcPeer(child, name),
    async stop(graceMs = 30_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function waitForHealth(url: string, child: ChildProcess, logFile: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before answering; see ${logFile}`);
    try {
      const response = await fetch(`${url}/readyz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server did not become ready within ${timeoutMs / 1000} s; see ${logFile}`);
}

/** The environment of the server under test: only what the bench decides, nothing inherited by accident. */
function serverEnv(target: BenchTarget, port: number, jwtSecret: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(DATABASE_URL|REDIS_URL|STOREFRONT_|HOST$|PORT$|LOG_LEVEL$|NODE_OPTIONS$)/.test(key)),
  );
  return {
    ...inherited,
    HOST: '127.0.0.1',
    PORT: String(port),
    ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
    STOREFRONT_DATA_DIR: target.dataDir,
    STOREFRONT_JWT_SECRET: jwtSecret,
    // The limiter stays in the request path (its cost is measured) but never refuses the bench's load.
    STOREFRONT_RATE_LIMIT: '1000000',
    STOREFRONT_DEMO: 'false',
    LOG_LEVEL: 'warn',
    // webhook-delivery (bench/webhooks.ts): its receiver is on 127.0.0.1, and it holds attempts while it
    // builds a backlog, which must not time out meanwhile.
    STOREFRONT_WEBHOOK_ALLOW_PRIVATE: 'true',
    STOREFRONT_WEBHOOK_TIMEOUT_MS: '600000',
    ...extra,
  };
}

export type BuildMode = 'compiled' | 'tsx';

/** One build per checkout (this one, and a --baseline's). */
const compiled = new Map<string, Promise<string>>();

/**
 * The production build (`tsc -p tsconfig.build.json`) into a private directory, so the bench never
 * runs a stale dist/. Type errors elsewhere in the tree do not stop tsc from emitting; a missing entry
 * point does. The compiled migrate.js looks for migrations/ two or three levels above itself (right for
 * dist/ at the repository root); this build sits one level deeper, so migrations/ is linked into it.
 */
function compileServer(root: string): Promise<string> {
  const known = compiled.get(root);
  if (known) return known;
  const build = (async () => {
    // One directory per bench process: concurrent runs must not rebuild under each other's server.
    const outDir = `${root}.tmp/bench-build-${process.pid}`;
    rmSync(outDir, { recursive: true, force: true });
    process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
    const tsc = spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json', '--outDir', outDir], {
      cwd: root,
      encoding: 'utf8',
    });
    const entry = `${outDir}/src/cli/main.js`;
    if (!existsSync(entry)) throw new Error(`the build produced no ${entry}:\n${tsc.stdout}${tsc.stderr}`);
    symlinkSync(`${root}migrations`, `${outDir}/migrations`);
    if (tsc.status !== 0) process.stderr.write(`warning: tsc reported errors but emitted the server:\n${tsc.stdout.trim()}\n`);
    return entry;
  })();
  compiled.set(root, build);
  return build;
}

/**
 * The real `serve` (bench/serve.mjs calls the service's runServe), with the instrument preloaded: from the
 * compiled build (what `npm run build` + `npm start` run in production) or the TypeScript sources through
 * tsx (what `npm start` runs in a checkout without a build).
 */
export interface ServerSetup {
  jwtSecret: string;
  logFile: string;
  build: BuildMode;
  env: Record<string, string>;
  /** `serve --workers N` when above 1 */
  workers?: number;
  /** the checkout whose server runs (a --baseline's); default this one */
  root?: string;
}

export async function startServer(target: BenchTarget, setup: ServerSetup): Promise<ServerChild> {
  const { logFile, build } = setup;
  const port = await freePort();
  const log = openSync(logFile, 'a');
  // the service's own serve, with the bench's after-work passed in (bench/serve.mjs: the event-cost switch)
  const root = setup.root ?? ROOT;
  const source = build === 'compiled' ? dirname(dirname(await compileServer(root))) : `${root}src`;
  const workers = setup.workers ?? 1;
  const launcher = launcherSetup(setup.env, root);
  const child = fork(`${ROOT}bench/serve.mjs`, ['serve', ...(workers > 1 ? ['--workers', String(workers)] : [])], {
    cwd: ROOT,
    env: {
      ...serverEnv(target, port, setup.jwtSecret, { ...launcher.env, ...setup.env }),
      BENCH_SERVER_SRC: source,
      BENCH_SERVER_EXT: build === 'compiled' ? 'js' : 'ts',
    },
    execArgv: [...launcher.flags, '--import', INSTRUMENT, ...(build === 'tsx' ? TSX : [])],
    stdio: ['ignore', log, log, 'ipc'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, child, logFile);
  const server = { ...wrap('server', child), url, pid: child.pid as number };
  // The first worker answering is not all of them: measure once every worker listens.
  while (workers > 1 && (await server.peer.request<{ workersListening: number }>('report')).workersListening < workers) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return server;
}

/** Children written for the bench say `{ready: true}` once they listen for requests (earlier messages would be lost). */
function ready(child: ChildProcess, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if ((message as { ready?: boolean })?.ready !== true) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve();
    };
    const onExit = (code: number | null) => reject(new Error(`${name} exited (${code}) before it was ready`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export async function startCeiling(
  routes: { path: string; body: string }[],
  databaseUrl: string | null,
  logFile: string,
): Promise<ServerChild> {
  const log = openSync(logFile, 'a');
  const child = fork(new URL('./ceiling-server.ts', import.meta.url).pathname, [], {
    cwd: ROOT,
    execArgv: [...TSX, '--import', INSTRUMENT],
    stdio: ['ignore', log, log, 'ipc'],
  });
  const started = wrap('ceiling', child);
  await ready(child, 'ceiling');
  const port = await freePort();
  await started.peer.request('serve', { port, routes, databaseUrl });
  return { ...started, url: `http://127.0.0.1:${port}`, pid: child.pid as number };
}

export async function startLoadDriver(logFile: string): Promise<Child> {
  const log = openSync(logFile, 'a');
  const child = fork(new URL('./load-driver.ts', import.meta.url).pathname, [], {
    cwd: ROOT,
    execArgv: TSX,
    stdio: ['ignore', log, log, 'ipc'],
  });
  const driver = wrap('load driver', child);
  await ready(child, 'load driver');
  return driver;
}
