import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from './support/server-process.js';
import { request, seedStore } from './support/storefront-client.js';
import { clusterUnavailable, createThrowawayCluster, createThrowawayStandby, type ThrowawayCluster } from './support/throwaway-cluster.js';

/**
 * Reads on a streaming replica without reading the past (docs/scaling.md §4). A primary and a standby made with
 * `pg_basebackup -R` that replays each commit 500 ms late; two server processes on them sharing Redis; clients
 * doing write-then-read pairs (create then GET by id, PATCH then a list with updatedSince, create then a
 * search), each read on the other process from its write's. With the credential's remembered position (or the
 * header) no read is stale and none is a 404; a reader with another credential and no header reads the replica
 * and is stale (so the check can fail); the standby stopped and started under that load costs no request; a
 * webhook receiver reading back with the delivery's token sees the event's state, and so does a credential that
 * read the change in the feed. Every GET that may read the replica is answered there (none writes).
 *
 * Sizes: REPLICA_TEST_CLIENTS (10) clients × REPLICA_TEST_PAIRS (12) pairs per run here, to stay well under a
 * minute; the 10 × 1,000 is the same test with REPLICA_TEST_PAIRS=1000 (docs/scaling.md §4 has its figures).
 */

const redisUrl = process.env.REDIS_URL;
const unavailable = clusterUnavailable() ?? (redisUrl ? null : 'needs REDIS_URL');
if (unavailable) console.warn(`replicas.system.test.ts: skipped (${unavailable})`);

const CLIENTS = Number(process.env.REPLICA_TEST_CLIENTS ?? 10);
const PAIRS = Number(process.env.REPLICA_TEST_PAIRS ?? 12);
// a pair whose read waits for the replica and then reads the primary takes ~0.3 s; the full size runs for minutes
const RUN_MS = 120_000 + PAIRS * 1_500;

interface Tally {
  pairs: number;
  stale: number;
  notFound: number;
  /** any other answer than the write's 2xx and the read's 200 */
  errors: string[];
}

interface Reader {
  token: string;
  /** send the write's Storefront-Consistency on the read */
  header: boolean;
}

describe.skipIf(unavailable)('read replicas with read-your-writes', () => {
  let primary: ThrowawayCluster;
  let standby: ThrowawayCluster;
  const servers: ServerProcess[] = [];
  const dataDirs = [mkdtempSync(join(tmpdir(), 'storefront-replica-a-')), mkdtempSync(join(tmpdir(), 'storefront-replica-b-'))];
  let token: string;
  /** another credential of the store: nothing it wrote is remembered */
  let otherKey: string;
  let hooks: Server | undefined;

  beforeAll(async () => {
    primary = await createThrowawayCluster();
    standby = await createThrowawayStandby(primary, ["recovery_min_apply_delay = '500ms'"]);
    const jwtSecret = randomBytes(32).toString('hex');
    ({ token } = await seedStore(primary.url, jwtSecret));
    const env = {
      DATABASE_URL: primary.url,
      STOREFRONT_REPLICA_URLS: standby.url,
      REDIS_URL: redisUrl as string,
      STOREFRONT_JWT_SECRET: jwtSecret,
      STOREFRONT_WEBHOOK_ALLOW_PRIVATE: 'true',
      STOREFRONT_METRICS_PUBLIC: 'true',
      STOREFRONT_RATE_LIMIT: '100000',
      STOREFRONT_REDIS_TIMEOUT_MS: '2000',
      STOREFRONT_REQUEST_LOG: 'false',
    };
    servers.push(...(await Promise.all(dataDirs.map((dir) => startServerProcess({ ...env, STOREFRONT_DATA_DIR: dir })))));
    const key = await request(servers[0].base, token, 'POST', '/api-keys', { name: 'reader', scopes: ['products:read'] });
    expect(key.status).toBe(201);
    otherKey = key.body.data.key;
    await replicaInUse();
  }, 180_000);

  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGKILL');
    await Promise.all(servers.map((server) => server.exited));
    await new Promise((resolve) => (hooks ? hooks.close(resolve) : resolve(undefined)));
    standby?.destroy();
    primary?.destroy();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  const metricsOf = async (server: ServerProcess) => (await fetch(`${server.base}/metrics`)).text();
  /** reads counted by both processes with this target (and reason, when given) */
  const readsOf = async (target: 'primary' | 'replica', reason = '[^"]*') => {
    const counted = new RegExp(`^storefront_reads_total\\{target="${target}",reason="${reason}"\\} (\\d+)`, 'gm');
    let total = 0;
    for (const server of servers) for (const [, value] of (await metricsOf(server)).matchAll(counted)) total += Number(value);
    return total;
  };
  const replicaReads = () => readsOf('replica');

  /** The processes' probes have seen the standby streaming: GETs of a caught-up replica go to it. */
  async function replicaInUse(): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const before = await replicaReads();
      for (const server of servers) await request(server.base, otherKey, 'GET', '/products?limit=1');
      if ((await replicaReads()) >= before + servers.length) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error('the servers never read the replica');
  }

  /** One write-then-read pair of kind `n % 3`, the read on the other process; what it found, added to `tally`. */
  async function pair(n: number, client: number, reader: Reader, tally: Tally): Promise<void> {
    const [writeTo, readFrom] = n % 2 ? [servers[1], servers[0]] : [servers[0], servers[1]];
    const tag = `c${client}n${n}${randomBytes(3).toString('hex')}`;
    const created = await request(writeTo.base, token, 'POST', '/products', { title: `zq${tag}`, price: 5 });
    if (created.status !== 201) return void tally.errors.push(`POST ${created.status}`);
    let written = created;
    let path = `/products/${created.body.data.id}`;
    if (n % 3 === 1) {
      written = await request(writeTo.base, token, 'PATCH', path, { title: `zp${tag}` });
      if (written.status !== 200) return void tally.errors.push(`PATCH ${written.status}`);
      path = `/products?updatedSince=${encodeURIComponent(written.body.data.updatedAt)}&limit=100`;
    } else if (n % 3 === 2) path = `/products?search=zq${tag}`;
    const position = written.headers.get('storefront-consistency');
    if (!position) return void tally.errors.push('a write without Storefront-Consistency');
    const read = await readWith(readFrom, reader, path, position);
    tally.pairs++;
    if (read.status === 404) tally.notFound++;
    else if (read.status !== 200) tally.errors.push(`GET ${read.status}`);
    else if (!sees(read.body.data, written.body.data)) tally.stale++;
  }

  const readWith = async (server: ServerProcess, reader: Reader, path: string, position: string) => {
    const response = await fetch(`${server.base}/api/v1${path}`, {
      headers: { authorization: `Bearer ${reader.token}`, ...(reader.header ? { 'storefront-consistency': position } : {}) },
    }).catch(() => null);
    if (!response) return { status: 0, body: null };
    return { status: response.status, body: await response.json() };
  };

  // the record as written (its title), alone or in a list
  const sees = (data: unknown, record: { id: string; title: string }) =>
    (Array.isArray(data) ? data : [data]).some((one: { id: string; title: string }) => one.id === record.id && one.title === record.title);

  async function run(reader: Reader, pairs: number, during?: () => Promise<void>): Promise<Tally> {
    const tally: Tally = { pairs: 0, stale: 0, notFound: 0, errors: [] };
    let busy = true;
    const clients = Array.from({ length: CLIENTS }, async (_, client) => {
      for (let n = 0; n < pairs || busy; n++) await pair(n, client, reader, tally);
    });
    await (during?.() ?? Promise.resolve());
    busy = false;
    await Promise.all(clients);
    // the figures of a run (docs/scaling.md §4 quotes the full size's)
    console.info(
      `replicas: ${JSON.stringify({ ...tally, errors: tally.errors.length, reader: reader.token === token ? 'writer' : 'other', header: reader.header })}`,
    );
    return tally;
  }

  it('answers every GET of the API that may read a replica there: none fails on the standby (none writes)', async () => {
    const sweeper = await request(servers[0].base, token, 'POST', '/api-keys', { name: 'sweeper', scopes: ['*'] });
    const product = await request(servers[0].base, token, 'POST', '/products', { title: 'swept', price: 1 });
    const document = await (await fetch(`${servers[0].base}/api/v1/openapi.json`)).json();
    const takesToken = (operation: { parameters?: { $ref?: string }[] }) =>
      (operation.parameters ?? []).some((parameter) => parameter.$ref?.endsWith('/Storefront-Consistency'));
    const paths = Object.entries(document.paths as Record<string, { get?: { parameters?: { $ref?: string }[] } }>)
      .filter(([, item]) => item.get && takesToken(item.get))
      // the product just made where its id goes; an id of nothing (a 404 from the handler) elsewhere
      .map(([path]) =>
        path.replace(/^\/products\/\{id\}/, `/products/${product.body.data.id}`).replace(/\{\w+\}/g, '0123456789abcdef01234567'),
      );
    expect(paths.length).toBeGreaterThan(30);
    const [failedBefore, replicaBefore] = [await readsOf('primary', 'replica-failed'), await replicaReads()];
    const answers: string[] = [];
    for (const path of paths) {
      const response = await fetch(`${servers[0].base}/api/v1${path}`, { headers: { authorization: `Bearer ${sweeper.body.data.key}` } });
      await response.arrayBuffer();
      answers.push(`${response.status} ${path}`);
    }
    // an export takes its store slot (a row) on the primary and streams from the standby
    expect(answers).toContain('200 /exports/products');
    expect({ failed: (await readsOf('primary', 'replica-failed')) - failedBefore, answers }).toMatchObject({ failed: 0 });
    expect(await replicaReads()).toBeGreaterThan(replicaBefore);
    // a token this service never gave is refused, naming the header
    const malformed = await fetch(`${servers[1].base}/api/v1/products`, {
      headers: { authorization: `Bearer ${sweeper.body.data.key}`, 'storefront-consistency': 'yesterday' },
    });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.details).toEqual([expect.objectContaining({ field: 'storefront-consistency', in: 'header' })]);
  });

  it('never reads older than what the feed told about: its answer carries the position, remembered for the credential', async () => {
    const reader = (await request(servers[0].base, token, 'POST', '/api-keys', { name: 'feed reader', scopes: ['*'] })).body.data.key;
    const product = (await request(servers[0].base, token, 'POST', '/products', { title: 'told', price: 1 })).body.data;
    const stale: string[] = [];
    for (let n = 0; n < 5; n++) {
      const title = `told ${n}`;
      expect((await request(servers[0].base, token, 'PATCH', `/products/${product.id}`, { title })).status).toBe(200);
      // the feed (the primary, on one process) tells of the change; the record is read on the other, no header sent
      const feed = await request(servers[1].base, reader, 'GET', `/events?recordId=${product.id}&limit=250`);
      expect(feed.body.data.at(-1).data.title).toBe(title);
      expect(feed.headers.get('storefront-consistency')).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
      const read = await request(servers[0].base, reader, 'GET', `/products/${product.id}`);
      if (read.body.data.title !== title) stale.push(`${title}: ${read.body.data.title}`);
    }
    expect(stale).toEqual([]);
  });

  it('reads its own writes through either process: the remembered position, or the header', { timeout: RUN_MS }, async () => {
    const remembered = await run({ token, header: false }, PAIRS);
    expect(remembered).toMatchObject({ pairs: CLIENTS * PAIRS, stale: 0, notFound: 0, errors: [] });
    const sent = await run({ token: otherKey, header: true }, Math.ceil(PAIRS / 2));
    expect(sent).toMatchObject({ stale: 0, notFound: 0, errors: [] });
  });

  it('without the remembering and the header, reads on the replica are stale, and the standby stopping fails none', {
    timeout: RUN_MS,
  }, async () => {
    const before = await replicaReads();
    const outage = async () => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await standby.outage(2000);
      await replicaInUse();
    };
    const blind = await run({ token: otherKey, header: false }, Math.ceil(PAIRS / 2), outage);
    expect(blind.errors).toEqual([]);
    expect(blind.stale + blind.notFound).toBeGreaterThan(0);
    expect(await replicaReads()).toBeGreaterThan(before);
    const metrics = (await Promise.all(servers.map(metricsOf))).join('\n');
    expect(metrics).toMatch(/^storefront_replica_lag_seconds\{replica="127\.0\.0\.1:\d+"\} [\d.e-]+$/m);
    // the outage was seen: reads the replica failed, or reads that found no replica up, answered by the primary
    expect(metrics).toMatch(/^storefront_reads_total\{target="primary",reason="(replica-failed|no-replica)"\} [1-9]\d*$/m);
  });

  it('reads on the replica once it has replayed the position', async () => {
    const created = await request(servers[0].base, token, 'POST', '/products', { title: 'replayed', price: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const before = await replicaReads();
    const read = await readWith(
      servers[1],
      { token, header: true },
      `/products/${created.body.data.id}`,
      created.headers.get('storefront-consistency') as string,
    );
    expect(read.status).toBe(200);
    expect(await replicaReads()).toBe(before + 1);
  });

  it('a webhook receiver reading back with the delivery token sees the event state', { timeout: 60_000 }, async () => {
    const seen: { stale: boolean; header: string | undefined }[] = [];
    hooks = createServer((incoming, outgoing) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', async () => {
        const event = JSON.parse(Buffer.concat(chunks).toString());
        const header = incoming.headers['storefront-consistency'] as string | undefined;
        const reader = { token: otherKey, header: true };
        const read = await readWith(servers[seen.length % 2], reader, `/products/${event.data.id}`, header ?? '');
        seen.push({ stale: read.status !== 200 || read.body.data.updatedAt < event.data.updatedAt, header });
        outgoing.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hooks?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hooks.address() as { port: number }).port}/hook`;
    expect((await request(servers[0].base, token, 'POST', '/webhooks', { url, events: ['product.updated'] })).status).toBe(201);
    const product = (await request(servers[0].base, token, 'POST', '/products', { title: 'hooked', price: 1 })).body.data;
    for (let n = 0; n < 10; n++) await request(servers[n % 2].base, token, 'PATCH', `/products/${product.id}`, { title: `hooked ${n}` });
    const deadline = Date.now() + 30_000;
    while (seen.length < 10 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toHaveLength(10);
    expect(seen.filter((one) => one.stale || !one.header)).toEqual([]);
  });
});
