import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createOwnDatabase, type OwnDatabase } from './support/own-database.js';
import { closesWithin, pause, write } from './support/raw-http.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';
import { eventually, productBody, request, seedStore } from './support/storefront-client.js';

/** The server process and signals: SIGTERM stops it gracefully, SIGKILL loses no acknowledged write. */

const started: ServerProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(env);
  started.push(server);
  return server;
}

afterAll(async () => {
  for (const server of started) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  for (const cleanup of cleanups) await cleanup();
});

/** An embedded-mode data dir with the run's migrated template in it: the demo store is made at start. */
function embeddedDataDir(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'storefront-signals-'));
  cpSync(inject('pgliteTemplate'), dataDir, { recursive: true });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  return dataDir;
}

/** Sends the head and the first half of a POST /auth, leaving the request in flight until `finish` is called. */
async function loginInFlight(server: ServerProcess, dataDir: string) {
  const body = readFileSync(join(dataDir, 'demo-credentials.json'));
  const { port } = new URL(server.base);
  const socket = net.connect(Number(port), '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString();
  });
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  await write(socket, `POST /api/v1/auth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
  await write(socket, body.subarray(0, 10));
  // The server has routed the request and waits for the rest of its body.
  await pause(300);
  return { socket, finish: () => write(socket, body.subarray(10)), received: () => received };
}

describe('SIGTERM', () => {
  it('stops accepting, finishes the request in flight, closes the database, exits 0', async () => {
    const dataDir = embeddedDataDir();
    const server = await start({ STOREFRONT_DATA_DIR: dataDir, STOREFRONT_DEMO: 'true' });
    const login = await loginInFlight(server, dataDir);
    server.child.kill('SIGTERM');
    const refusing = await eventually(async () => (await request(server.base, '', 'GET', '/healthz')).status === 0, 10_000);
    expect(refusing).toBe(true);
    await login.finish();
    expect(await closesWithin(login.socket, 10_000)).toBe(true);
    expect(login.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(login.received()).toMatch(/"accessToken":"/);
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.output()).toMatch(/shutting down: finishing in-flight requests/);
    // The database was closed: the embedded engine's lock on the data dir is gone.
    expect(existsSync(join(dataDir, 'storefront.lock'))).toBe(false);
  }, 90_000);

  it('cuts requests still running after STOREFRONT_SHUTDOWN_TIMEOUT_MS and exits 1 instead of waiting for them', async () => {
    const dataDir = embeddedDataDir();
    const server = await start({ STOREFRONT_DATA_DIR: dataDir, STOREFRONT_DEMO: 'true', STOREFRONT_SHUTDOWN_TIMEOUT_MS: '1000' });
    const login = await loginInFlight(server, dataDir);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    // The body never comes: only the deadline (not the 2-minute request timeout) ends this request.
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(Date.now() - signalled).toBeLessThan(20_000);
    expect(await closesWithin(login.socket, 1_000)).toBe(true);
    expect(server.output()).toMatch(/STOREFRONT_SHUTDOWN_TIMEOUT_MS/);
  }, 90_000);
});

const postgresUrl = process.env.TEST_DATABASE_URL;
if (!postgresUrl)
  console.warn('process-signals.system.test.ts: the SIGKILL test in PostgreSQL mode is skipped (TEST_DATABASE_URL is not set)');

describe.skipIf(!postgresUrl)('SIGKILL in PostgreSQL mode', () => {
  it('loses no acknowledged write: after a restart every 201 is there, whole', async () => {
    const own: OwnDatabase = await createOwnDatabase(postgresUrl as string, 'storefront_kill', inject('postgresTemplate'));
    cleanups.push(() => own.drop());
    const jwtSecret = randomBytes(32).toString('hex');
    const { token } = await seedStore(own.url, jwtSecret);
    const env = { DATABASE_URL: own.url, STOREFRONT_JWT_SECRET: jwtSecret, STOREFRONT_RATE_LIMIT: '0' };
    const server = await start(env);

    const acknowledged: string[] = [];
    let writing = true;
    const writer = async (w: number) => {
      for (let n = 0; writing; n++) {
        const answer = await request(server.base, token, 'POST', '/products', productBody(w * 100_000 + n));
        if (answer.status === 201) acknowledged.push(answer.body.data.id);
        if (answer.status === 0) return;
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    expect(await eventually(async () => acknowledged.length >= 30, 60_000)).toBe(true);
    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    writing = false;
    await Promise.all(writers);

    const restarted = await start(env);
    for (const id of acknowledged) {
      const product = await request(restarted.base, token, 'GET', `/products/${id}`);
      expect(product.status).toBe(200);
      expect(product.body.data.variants).toHaveLength(6);
    }
    const all = await request(restarted.base, token, 'GET', '/products?limit=250');
    expect(all.body.pagination.total).toBeGreaterThanOrEqual(acknowledged.length);
    for (const product of all.body.data) expect(product.variants).toHaveLength(6);
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toEqual({ code: 0, signal: null });
  }, 120_000);
});
