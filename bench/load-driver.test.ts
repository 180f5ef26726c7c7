import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drive } from './measure.js';
import { type BenchOptions, parseOptions } from './options.js';
import { type Child, startLoadDriver } from './processes.js';
import type { SeedInfo } from './seed/seed.js';

/**
 * The load driver's rounds (load-driver.ts, through measure.ts's drive) against a stand-in server that answers
 * every request after SLOW_MS: slower than a round of seconds, as POST /auth's password hash was in the smoke run's
 * one-second round at load 9 (it answered none, and the run failed). The smoke run's rounds are of requests
 * (--requests): each answered, however long it takes.
 */

const SLOW_MS = 1500;
const dir = mkdtempSync(join(tmpdir(), 'storefront-load-driver-'));
let server: Server;
let url: string;
let driver: Child;

beforeAll(async () => {
  server = createServer((_request, response) => {
    setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'), SLOW_MS);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  driver = await startLoadDriver(join(dir, 'load-driver.log'));
});

afterAll(async () => {
  await driver?.stop(5000);
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const rigOf = (options: BenchOptions) => ({ options, driver, context: { seed: {} as SeedInfo, credential: 'stand-in' } });

describe('a round of the load driver', () => {
  it('of --requests (the smoke run): every request answered, however slow the server', { timeout: 60_000 }, async () => {
    const options = parseOptions(['--smoke']) as BenchOptions;
    expect(options).toMatchObject({ requests: 20, connections: 10 });
    const round = await drive(rigOf(options), 'list-products', { url }, options.duration);
    expect(round).toMatchObject({ ok: 20, non2xx: 0, errors: 0, timeouts: 0 });
    // each connection's two requests in turn
    expect(round.seconds).toBeGreaterThanOrEqual((2 * SLOW_MS) / 1000 - 0.05);
    expect(round.rps).toBeGreaterThan(0);
  });

  it('of seconds, shorter than a request: none answered (why the smoke run counts requests)', { timeout: 60_000 }, async () => {
    const options = parseOptions(['--smoke', '--duration', '1']) as BenchOptions;
    expect(options.requests).toBeNull();
    const round = await drive(rigOf(options), 'list-products', { url }, options.duration);
    expect(round.ok).toBe(0);
  });
});

describe('--requests options', () => {
  it('defaults to 20 with --smoke, unless it was given lengths in seconds, and gives each connection one at least', () => {
    expect(parseOptions([])).toMatchObject({ requests: null, duration: 10 });
    expect(parseOptions(['--smoke', '--warmup', '1'])).toMatchObject({ requests: null });
    expect(parseOptions(['--requests', '50'])).toMatchObject({ requests: 50 });
    expect(() => parseOptions(['--requests', '5'])).toThrow(/--connections/);
    expect(() => parseOptions(['--requests', '50', '--duration', '2'])).toThrow(/--duration/);
  });
});
