import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createOwnDatabase, type OwnDatabase } from './support/own-database.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';
import { eventually, request, seedStore, sharesRateLimit } from './support/storefront-client.js';
import { walkThrough } from './support/walkthrough.js';

/**
 * Two machines: two `storefront serve` processes with data dirs of their own on one PostgreSQL and one
 * Redis, behind a round-robin load balancer (a few lines of proxy here). Every resource's operations go
 * through it, so each request lands on the other process from the one before; an image uploaded through
 * one is served by the other; an import posted to one is finished by the other after the first is killed
 * with SIGKILL; each webhook delivery reaches its receiver once; the rate limit is one budget.
 */

const postgresUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
if (!postgresUrl || !redisUrl) console.warn('two-machines.system.test.ts: skipped (needs TEST_DATABASE_URL and REDIS_URL)');

interface Balancer {
  base: string;
  /** which backend answered each request, in order */
  answeredBy: number[];
  close(): Promise<void>;
}

/** Round robin over `backends`; a backend that refuses the connection is skipped (a machine that died). */
async function startBalancer(backends: () => string[]): Promise<Balancer> {
  const answeredBy: number[] = [];
  let turn = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const forward = (tries: number) => {
        const index = turn++ % backends().length;
        const target = new URL(backends()[index]);
        const proxied = httpRequest(
          { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: incoming.headers },
          (answer) => {
            answeredBy.push(index);
            outgoing.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-backend': String(index) });
            answer.pipe(outgoing);
          },
        );
        proxied.on('error', () => (tries > 1 ? forward(tries - 1) : outgoing.writeHead(502).end()));
        proxied.end(body);
      };
      forward(backends().length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    answeredBy,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(!postgresUrl || !redisUrl)('two machines behind a load balancer', () => {
  let own: OwnDatabase;
  const servers: ServerProcess[] = [];
  const dataDirs = [mkdtempSync(join(tmpdir(), 'storefront-machine-a-')), mkdtempSync(join(tmpdir(), 'storefront-machine-b-'))];
  let balancer: Balancer;
  let hooks: Server;
  let hookUrl: string;
  const received = new Map<string, number>();
  let token: string;

  beforeAll(async () => {
    own = await createOwnDatabase(postgresUrl as string, 'storefront_machines', inject('postgresTemplate'));
    hooks = createServer((incoming, outgoing) => {
      const id = String(incoming.headers['webhook-id']);
      received.set(id, (received.get(id) ?? 0) + 1);
      incoming.resume().on('end', () => outgoing.writeHead(204).end());
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(hooks.address() as { port: number }).port}/hook`;
    balancer = await startBalancer(() =>
      servers.filter((server) => server.child.exitCode === null && server.child.signalCode === null).map((s) => s.base),
    );
    const jwtSecret = randomBytes(32).toString('hex');
    ({ token } = await seedStore(own.url, jwtSecret));
    const env = {
      DATABASE_URL: own.url,
      REDIS_URL: redisUrl as string,
      STOREFRONT_JWT_SECRET: jwtSecret,
      STOREFRONT_PUBLIC_URL: balancer.base,
      STOREFRONT_WEBHOOK_ALLOW_PRIVATE: 'true',
      STOREFRONT_JOB_LEASE_SECONDS: '2',
      STOREFRONT_RATE_LIMIT: '1000',
      STOREFRONT_REDIS_TIMEOUT_MS: '2000',
    };
    servers.push(...(await Promise.all(dataDirs.map((dir) => startServerProcess({ ...env, STOREFRONT_DATA_DIR: dir })))));
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGKILL');
    await Promise.all(servers.map((server) => server.exited));
    await balancer?.close();
    await new Promise((resolve) => hooks?.close(resolve));
    await own?.drop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  const viaBalancer = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const answer = await fetch(`${balancer.base}/api/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    // exports answer NDJSON: kept as text
    const json = answer.headers.get('content-type')?.startsWith('application/json');
    return { status: answer.status, body: json && text ? JSON.parse(text) : text, headers: answer.headers };
  };

  it('runs every operation through alternating processes and serves media from either', async () => {
    const hook = await viaBalancer('POST', '/webhooks', { url: hookUrl, events: ['*'] });
    expect(hook.status).toBe(201);
    const walked = await walkThrough(viaBalancer);
    expect(walked.failures).toEqual([]);
    // both processes answered, in turns
    const answered = balancer.answeredBy.slice(-walked.calls);
    expect(new Set(answered)).toEqual(new Set([0, 1]));
    expect(answered.filter((backend, i) => i > 0 && backend === answered[i - 1])).toEqual([]);

    // the image uploaded through the balancer (one process) is served by each process directly
    const path = new URL(walked.imageUrl).pathname;
    for (const server of servers) {
      const image = await fetch(`${server.base}${path}`);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(image.headers.get('cache-control')).toContain('immutable');
    }

    // every event of the walkthrough reaches the receiver once, though both processes deliver
    const events = async () => (await viaBalancer('GET', '/events?limit=200')).body.data as { id: string }[];
    // The feed shows an event once no transaction older than it is still running (docs/events.md); a
    // worker's transaction on either process can hold the newest few back for a moment.
    let fed: { id: string }[] = [];
    const feedShowsAll = async () => {
      fed = await events();
      return fed.length > 20;
    };
    expect(await eventually(feedShowsAll, 30_000)).toBe(true);
    expect(await eventually(async () => fed.every((event) => received.has(event.id)), 30_000)).toBe(true);
    // a late duplicate would come within a delivery's lease; the attempts above took milliseconds
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect([...received.values()].filter((count) => count !== 1)).toEqual([]);
    expect((await viaBalancer('PATCH', `/webhooks/${hook.body.data.id}`, { enabled: false })).status).toBe(200);
  }, 90_000);

  it('counts one credential against one rate limit on both processes', async () => {
    expect(await sharesRateLimit([servers[0].base, servers[1].base], token, 1100)).toBe(true);
  }, 30_000);

  it('finishes on one process an import started on the other, after kill -9', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) =>
      JSON.stringify({ title: `Moved ${i}`, handle: `moved-${i}`, price: 1 + i, options: [{ name: 'Size', values: ['S', 'M'] }] }),
    );
    const [first, second] = servers;
    // The second machine is frozen (SIGSTOP) while the import starts, so the first one is running it when killed.
    process.kill(second.child.pid as number, 'SIGSTOP');
    let jobId: string;
    try {
      const posted = await fetch(`${first.base}/api/v1/imports?resource=products`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
        body: lines.join('\n'),
      });
      expect(posted.status).toBe(202);
      jobId = (await posted.json()).data.id as string;
      const progress = async () => (await request(first.base, token, 'GET', `/jobs/${jobId}`)).body?.data?.processed ?? 0;
      expect(await eventually(async () => (await progress()) >= 100, 60_000)).toBe(true);
      first.child.kill('SIGKILL');
      await first.exited;
    } finally {
      process.kill(second.child.pid as number, 'SIGCONT');
    }
    const job = async () => (await viaBalancer('GET', `/jobs/${jobId}`)).body?.data;
    expect((await job()).processed).toBeLessThan(lines.length);
    // the second claims it once the first one's lease (2 s) has lapsed, and goes on from its last batch
    expect(await eventually(async () => (await job())?.status === 'succeeded', 60_000)).toBe(true);
    expect(await job()).toMatchObject({ total: lines.length, processed: lines.length, created: lines.length, failed: 0 });
    const moved = await request(second.base, token, 'GET', '/products?search=Moved&limit=1');
    expect(moved.body.pagination.total).toBe(lines.length);
  }, 150_000);
});
