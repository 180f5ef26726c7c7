import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createOwnDatabase } from './support/own-database.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';
import { eventually, request, seedStore } from './support/storefront-client.js';

/**
 * kill -9 with webhook deliveries pending, on real server processes: a backlog builds up behind a slow
 * receiver, the server is killed while attempts are in flight, a new one starts on the same database, and
 * every event still reaches the receiver (at least once; each delivery succeeded; attempts add up), the
 * events of one record in feed order.
 */

const EVENTS = 60;
// One more record with this many events (its creation, then updates): they must arrive in order, across the kill.
const RECORD_EVENTS = 10;
// The receiver answers this many requests at once, then holds every later one unanswered until the kill.
const ANSWERED_BEFORE_KILL = 8;
// Held attempts must still be in flight at the kill, however loaded the machine (a held attempt that timed
// out would be retried and sent again before the kill): the kill comes ~0.3 s after the first one is held.
const TIMEOUT_MS = 15_000;
// The attempts cut by the kill are sent again when their lease ends, and the test waits that out on each engine
// (at the same time). The default lease is the timeout + 30 s (45 s here: most of this file's minute); 5 s past
// the timeout still outlasts every attempt, and after the restart the receiver answers at once, so an outcome
// recorded late only adds a send, which the checks below allow (at least once; attempts add up).
const LEASE_SECONDS = TIMEOUT_MS / 1000 + 5;

const started: ServerProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const server of started) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  for (const cleanup of cleanups) await cleanup();
});

// (The start waits for the `storefront listening` log line, at the default info level.) A loaded machine
// (tsx compiles the sources at start) can take minutes to start a server.
async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(
    {
      STOREFRONT_WEBHOOK_ALLOW_PRIVATE: 'true',
      STOREFRONT_WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      STOREFRONT_WEBHOOK_LEASE_SECONDS: String(LEASE_SECONDS),
      STOREFRONT_RATE_LIMIT: '0',
      ...env,
    },
    240_000,
  );
  started.push(server);
  return server;
}

interface Hit {
  id: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A receiver on 127.0.0.1: it answers 200 to its first ANSWERED_BEFORE_KILL requests, holds the later ones
 * unanswered (a receiver stuck mid-backlog) until `release`, and answers everything at once after it.
 */
async function receiver() {
  const hits: Hit[] = [];
  const held = new Map<string, http.ServerResponse>();
  let released = false;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      hits.push({ id, headers: req.headers, body });
      if (released || hits.length <= ANSWERED_BEFORE_KILL) res.writeHead(200).end('ok');
      else held.set(id, res);
    });
    req.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    hits,
    held,
    release: () => {
      released = true;
      for (const res of held.values()) res.destroy();
      held.clear();
    },
  };
}

async function allEvents(base: string, token: string): Promise<{ id: string; data: { id: string } }[]> {
  const ids: { id: string; data: { id: string } }[] = [];
  let cursor = '';
  for (;;) {
    const page = await request(base, token, 'GET', `/events?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(page.status).toBe(200);
    ids.push(...page.body.data);
    if (!page.body.pagination.hasMore) return ids;
    cursor = page.body.pagination.nextCursor;
  }
}

interface DeliveryRow {
  eventId: string;
  status: string;
  attempts: number;
}

async function allDeliveries(base: string, token: string, webhookId: string): Promise<DeliveryRow[]> {
  const rows: DeliveryRow[] = [];
  for (let page = 1; ; page++) {
    const reply = await request(base, token, 'GET', `/webhooks/${webhookId}/deliveries?limit=100&page=${page}`);
    expect(reply.status).toBe(200);
    rows.push(...reply.body.data);
    if (page >= reply.body.pagination.totalPages) return rows;
  }
}

/**
 * The scenario on one engine: `env` runs a server on the same database each time; `login` gives a token
 * for the running server.
 */
async function killMidBacklog(env: Record<string, string>, login: (server: ServerProcess) => Promise<string>) {
  const hook = await receiver();
  const first = await start(env);
  const token = await login(first);
  const created = await request(first.base, token, 'POST', '/webhooks', { url: hook.url, events: ['*'] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const { id: webhookId, secret } = created.body.data;

  // The ordered record first: its events queue behind each other, and one of them is held at the kill.
  const record = await request(first.base, token, 'POST', '/products', { title: 'Ordered' });
  expect(record.status).toBe(201);
  for (let n = 1; n < RECORD_EVENTS; n++) {
    expect((await request(first.base, token, 'PATCH', `/products/${record.body.data.id}`, { description: `v${n}` })).status).toBe(200);
  }
  for (let n = 0; n < EVENTS; n += 10) {
    const batch = Array.from({ length: 10 }, (_, k) => request(first.base, token, 'POST', '/products', { title: `Kill ${n + k}` }));
    for (const reply of await Promise.all(batch)) expect(reply.status).toBe(201);
  }
  // Mid-backlog: some delivered, some in flight (sent, not answered), the rest still pending.
  expect(await eventually(async () => hook.held.size > 0, 60_000)).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const inFlight = new Set(hook.held.keys());
  first.child.kill('SIGKILL');
  expect((await first.exited).signal).toBe('SIGKILL');
  // Some of the backlog had not been sent at all yet.
  expect(new Set(hook.hits.map((hit) => hit.id)).size).toBeLessThan(EVENTS + RECORD_EVENTS);
  expect(inFlight.size).toBeGreaterThan(0);
  hook.release();

  const second = await start(env);
  const token2 = await login(second);
  const events = await allEvents(second.base, token2);
  const eventIds = events.map((event) => event.id);
  expect(eventIds).toHaveLength(EVENTS + RECORD_EVENTS);
  // Attempts cut by the kill wait for their lease (LEASE_SECONDS) before they are sent again.
  const settled = await eventually(async () => {
    const rows = await allDeliveries(second.base, token2, webhookId);
    return rows.length === EVENTS + RECORD_EVENTS && rows.every((row) => row.status === 'succeeded');
  }, 300_000);
  expect(settled).toBe(true);
  const rows = await allDeliveries(second.base, token2, webhookId);

  // Every event arrived, signed, at least once; nothing arrived that is not an event of the store.
  const hitsById = new Map<string, number>();
  for (const hit of hook.hits) {
    hitsById.set(hit.id, (hitsById.get(hit.id) ?? 0) + 1);
    const verified = new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>) as { id: string };
    expect(verified.id).toBe(hit.id);
  }
  expect([...hitsById.keys()].sort()).toEqual([...eventIds].sort());
  expect(rows.map((row) => row.eventId).sort()).toEqual([...eventIds].sort());
  // Attempts are counted when claimed: every send was one, and only a claim cut before its send adds more.
  for (const row of rows) {
    expect(row.attempts).toBeGreaterThanOrEqual(hitsById.get(row.eventId) ?? 0);
    expect(row.attempts).toBeLessThanOrEqual((hitsById.get(row.eventId) ?? 0) + 1);
  }
  // The record's events, in feed order: every attempt of one came before the first of the next, the kill
  // and the restart included (an attempt cut by the kill stays pending until its lease ends, and the next
  // waits for it).
  const ordered = events.filter((event) => event.data.id === record.body.data.id).map((event) => event.id);
  expect(ordered).toHaveLength(RECORD_EVENTS);
  const positions = (id: string) => hook.hits.flatMap((hit, at) => (hit.id === id ? [at] : []));
  for (let k = 1; k < ordered.length; k++) {
    expect(Math.min(...positions(ordered[k]))).toBeGreaterThan(Math.max(...positions(ordered[k - 1])));
  }
  // The attempts in flight at the kill were never recorded: each was sent again after the restart.
  for (const id of inFlight) {
    expect(hitsById.get(id)).toBeGreaterThanOrEqual(2);
    expect(rows.find((row) => row.eventId === id)?.attempts).toBeGreaterThanOrEqual(2);
  }
  second.child.kill('SIGTERM');
  expect(await second.exited).toEqual({ code: 0, signal: null });
}

// The two engines side by side: each waits out its leases (LEASE_SECONDS), the other's wait overlapping it.
describe.concurrent('kill -9 with webhook deliveries pending', () => {
  it('embedded engine: every event reaches the receiver after a restart on the same data dir', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'storefront-webhooks-kill-'));
    cpSync(inject('pgliteTemplate'), dataDir, { recursive: true });
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const login = async (server: ServerProcess) => {
      const credentials = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8'));
      const reply = await request(server.base, '', 'POST', '/auth', credentials);
      expect(reply.status).toBe(200);
      return reply.body.data.accessToken as string;
    };
    await killMidBacklog({ STOREFRONT_DATA_DIR: dataDir, STOREFRONT_DEMO: 'true' }, login);
  }, 900_000);

  const postgresUrl = process.env.TEST_DATABASE_URL;
  it.skipIf(!postgresUrl)(
    'PostgreSQL: every event reaches the receiver after a restart on the same database',
    async () => {
      const own = await createOwnDatabase(postgresUrl as string, 'storefront_webhooks_kill', inject('postgresTemplate'));
      cleanups.push(() => own.drop());
      const jwtSecret = randomBytes(32).toString('hex');
      const { token } = await seedStore(own.url, jwtSecret);
      await killMidBacklog({ DATABASE_URL: own.url, STOREFRONT_JWT_SECRET: jwtSecret }, async () => token);
    },
    900_000,
  );
});
