import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOwnDatabase, type OwnDatabase } from './support/own-database.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';
import { eventually } from './support/storefront-client.js';

/**
 * `storefront serve --workers 2` as an operator runs it: one primary, two server processes on one
 * port. Needs PostgreSQL and Redis; the refusals need neither.
 */

const ROOT = new URL('..', import.meta.url).pathname;
const postgresUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const JWT_SECRET = randomBytes(32).toString('hex');
if (!postgresUrl || !redisUrl)
  console.warn('workers.system.test.ts: the running cluster is skipped (needs TEST_DATABASE_URL and REDIS_URL)');

interface LogLine {
  pid: number;
  msg: string;
  reqId?: string;
}

function lines(server: ServerProcess): LogLine[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

const listeningPids = (server: ServerProcess) =>
  lines(server)
    .filter((line) => line.msg === 'storefront listening')
    .map((line) => line.pid);

/** GET /healthz on a new connection each time (the primary hands connections out in turn); the pids that answered. */
async function answeringPids(server: ServerProcess, count: number): Promise<Set<number>> {
  const tag = randomBytes(4).toString('hex');
  for (let n = 0; n < count; n++) {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = http.get(`${server.base}/healthz`, { agent: false, headers: { 'x-request-id': `probe-${tag}-${n}` } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      });
      req.on('error', reject);
    });
    expect(status).toBe(200);
  }
  // Each worker logs its requests (LOG_LEVEL=debug) with its own pid.
  await eventually(async () => lines(server).filter((line) => line.reqId?.startsWith(`probe-${tag}`)).length >= count, 5_000);
  return new Set(
    lines(server)
      .filter((line) => line.reqId?.startsWith(`probe-${tag}`) && line.msg === 'request completed')
      .map((line) => line.pid),
  );
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** `serve` run to its end (it must refuse or give up, not serve). */
function serveOnce(env: Record<string, string>, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(DATABASE_URL|REDIS_URL|STOREFRONT_|PORT$)/.test(key)),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', ...args], {
    cwd: ROOT,
    env: { ...inherited, PORT: '0', STOREFRONT_DEMO: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
  return new Promise((resolve) =>
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    }),
  );
}

describe('serve --workers refuses what one process per data dir or per-process limits cannot keep', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'storefront-workers-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses more than one process on the embedded PGlite database, from the flag and from the environment', async () => {
    for (const [env, args] of [
      [{}, ['--workers', '2']],
      [{ STOREFRONT_WORKERS: '3' }, []],
    ] as const) {
      const run = await serveOnce({ STOREFRONT_DATA_DIR: dataDir, ...env }, [...args]);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^storefront: --workers \d needs DATABASE_URL: the embedded PGlite database belongs to one process/);
      expect(run.stdout).not.toMatch(/storefront listening/);
    }
  }, 90_000);

  it('refuses workers without REDIS_URL (rate limits and the login throttle would be one budget per worker)', async () => {
    const run = await serveOnce({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere', STOREFRONT_JWT_SECRET: JWT_SECRET }, [
      '--workers',
      '2',
    ]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^storefront: --workers 2 needs REDIS_URL/);
  }, 60_000);

  it('rejects a --workers that is not a count', async () => {
    const run = await serveOnce({ STOREFRONT_DATA_DIR: dataDir }, ['--workers', 'many']);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/STOREFRONT_WORKERS must be an integer/);
  }, 60_000);
});

describe.skipIf(!postgresUrl || !redisUrl)('serve --workers 2 on PostgreSQL and Redis', () => {
  let own: OwnDatabase;
  let server: ServerProcess;
  let workers: number[];

  beforeAll(async () => {
    own = await createOwnDatabase(postgresUrl as string, 'storefront_workers');
    const env = { DATABASE_URL: own.url, REDIS_URL: redisUrl as string, STOREFRONT_JWT_SECRET: JWT_SECRET, LOG_LEVEL: 'debug' };
    server = await startServerProcess(env, 120_000, ['--workers', '2']);
    expect(await eventually(async () => listeningPids(server).length === 2, 120_000)).toBe(true);
    workers = listeningPids(server);
  }, 240_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      for (const pid of listeningPids(server)) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    await own?.drop();
  });

  it('serves from both workers, each its own process', async () => {
    expect(new Set(workers).size).toBe(2);
    expect(workers).not.toContain(server.child.pid);
    expect(await answeringPids(server, 6)).toEqual(new Set(workers));
  });

  it('replaces a killed worker, and both serve again', async () => {
    const [victim, survivor] = workers;
    process.kill(victim, 'SIGKILL');
    expect(await eventually(async () => listeningPids(server).length === 3, 120_000)).toBe(true);
    const replacement = listeningPids(server)[2];
    expect([victim, survivor]).not.toContain(replacement);
    expect(server.output()).toMatch(/"msg":"worker died"/);
    expect(await answeringPids(server, 6)).toEqual(new Set([survivor, replacement]));
    workers = [survivor, replacement];
  }, 150_000);

  it('stops every worker gracefully on SIGTERM and exits 0', async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const shutdowns = lines(server).filter((line) => line.msg === 'shutting down: finishing in-flight requests');
    expect(new Set(shutdowns.map((line) => line.pid))).toEqual(new Set(workers));
    for (const pid of workers) expect(alive(pid)).toBe(false);
  }, 60_000);
});

describe.skipIf(!redisUrl)('serve --workers 2 when workers cannot start', () => {
  it('gives up with exit 1 after repeated startup failures instead of restarting forever', async () => {
    const run = await serveOnce(
      { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere', REDIS_URL: redisUrl as string, STOREFRONT_JWT_SECRET: JWT_SECRET },
      ['--workers', '2'],
    );
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/workers keep dying before they listen: giving up/);
    expect(run.stdout.match(/"msg":"worker died"/g)?.length).toBe(5);
  }, 160_000);
});
