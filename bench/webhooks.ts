import http from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import type { Rig } from './measure.js';
import { newOrderBody } from './scenarios.js';

/**
 * Webhook delivery throughput (`--scenario webhook-delivery`, part of a full run): a receiver on 127.0.0.1
 * in the bench process, a webhook of the seeded store pointing at it, a backlog of `order.created`
 * deliveries, then the server's own worker(s) deliver it while the clock runs:
 *
 * 1. the receiver's ceiling: a plain keep-alive client (autocannon) POSTing a delivery's bytes to it;
 * 2. the receiver holds every request unanswered; N orders are created through the API (the worker makes
 *    their deliveries from the feed): the worker takes its first claim and waits on it, the rest pile up;
 * 3. the webhook is disabled (pending deliveries wait), the held attempts answered and recorded;
 * 4. clock starts: the webhook is enabled again; clock stops when every pending delivery has reached the
 *    receiver (received/s), and when the server has recorded them all (recorded/s).
 *
 * The server runs with STOREFRONT_WEBHOOK_ALLOW_PRIVATE=true and a long STOREFRONT_WEBHOOK_TIMEOUT_MS
 * (bench/processes.ts), so the held attempts of step 2 do not time out while the backlog is built.
 */

export const WEBHOOK_SCENARIO = 'webhook-delivery';

export interface WebhookDeliveryResult {
  /** deliveries in the measured backlog */
  deliveries: number;
  /** orders/s while the backlog was created (the worker makes their deliveries from the feed meanwhile) */
  createOrdersPerSecond: number;
  /** deliveries/s until the receiver had every one */
  receivedPerSecond: number;
  /** deliveries/s until the server had recorded every one as succeeded */
  recordedPerSecond: number;
  /** the receiver's own req/s with a plain keep-alive client (same bytes, same connections as the worker's concurrency) */
  receiverCeiling: number;
  /** receivedPerSecond / receiverCeiling */
  ratioToReceiver: number;
  /** receivedPerSecond / createOrdersPerSecond: can delivery keep up with the writes that make deliveries? */
  ratioToCreates: number;
  /** attempts sent more than once (should be 0: every attempt succeeds) */
  duplicates: number;
}

const API = '/api/v1';

interface Receiver {
  url: string;
  /** distinct webhook-ids received after `mark` */
  receivedSince(): number;
  mark(): void;
  hold(): void;
  release(): void;
  duplicates(): number;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const seen = new Map<string, number>();
  let since = new Set<string>();
  let holding = false;
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = req.headers['webhook-id'];
      if (typeof id === 'string') {
        seen.set(id, (seen.get(id) ?? 0) + 1);
        since.add(id);
      }
      if (holding) held.push(res);
      else res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    receivedSince: () => since.size,
    mark: () => {
      since = new Set();
    },
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const res of held.splice(0)) res.writeHead(204).end();
    },
    duplicates: () => [...seen.values()].reduce((sum, n) => sum + n - 1, 0),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function api(rig: Rig, method: string, path: string, body?: unknown) {
  const response = await fetch(`${rig.server.url}${API}${path}`, {
    method,
    headers: { authorization: `Bearer ${rig.context.credential}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}

function cannon(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** The receiver's ceiling: a delivery's body and headers, POSTed by a keep-alive client. */
async function receiverCeiling(receiver: Receiver, rig: Rig, body: string): Promise<number> {
  let n = 0;
  const result = await cannon({
    url: receiver.url,
    connections: rig.options.connections,
    duration: rig.options.duration,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'webhook-timestamp': '0', 'webhook-signature': 'v1,x' },
        body,
        setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'webhook-id': `ceiling-${n++}` } }),
      },
    ],
  });
  return result.requests.average;
}

/** N orders through the API (autocannon, the bench's connections); orders/s. */
async function createOrders(rig: Rig, count: number): Promise<number> {
  const started = performance.now();
  const result = await cannon({
    url: rig.server.url,
    connections: rig.options.connections,
    amount: count,
    timeout: 120,
    requests: [
      {
        method: 'POST',
        path: `${API}/orders`,
        headers: { authorization: `Bearer ${rig.context.credential}`, 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: JSON.stringify(newOrderBody(rig.context.seed)) }),
      },
    ],
  });
  if (result.non2xx || result.errors) throw new Error(`creating the backlog: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return count / ((performance.now() - started) / 1000);
}

async function pendingOf(rig: Rig, webhookId: string): Promise<number> {
  const page = await api(rig, 'GET', `/webhooks/${webhookId}/deliveries?status=pending&limit=1`);
  return page.pagination.total;
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`webhook-delivery: not done within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export async function measureWebhookDelivery(rig: Rig): Promise<WebhookDeliveryResult> {
  const count = rig.options.smoke ? 100 : 500;
  const receiver = await startReceiver();
  try {
    const sample = JSON.stringify({
      id: 'x',
      type: 'order.created',
      createdAt: new Date().toISOString(),
      data: newOrderBody(rig.context.seed),
    });
    const ceiling = await receiverCeiling(receiver, rig, sample);
    const webhook = (await api(rig, 'POST', '/webhooks', { url: receiver.url, events: ['order.created'] })).data;
    receiver.hold();
    const createOrdersPerSecond = await createOrders(rig, count);
    // Deliveries are made from the feed by the worker: every order's exists before the webhook is turned off
    // (a disabled webhook's cursor does not move, and turning it on again starts it at the feed's present).
    await until(async () => (await api(rig, 'GET', `/webhooks/${webhook.id}/deliveries?limit=1`)).pagination.total >= count, 600_000, 100);
    await api(rig, 'PATCH', `/webhooks/${webhook.id}`, { enabled: false });
    receiver.release();
    // The attempts held in step 2 are answered and recorded; what is left waits for the webhook.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const backlog = await pendingOf(rig, webhook.id);
    receiver.mark();
    const started = performance.now();
    await api(rig, 'PATCH', `/webhooks/${webhook.id}`, { enabled: true });
    await until(() => receiver.receivedSince() >= backlog, 600_000, 5);
    const receivedSeconds = (performance.now() - started) / 1000;
    await until(async () => (await pendingOf(rig, webhook.id)) === 0, 600_000, 100);
    const recordedSeconds = (performance.now() - started) / 1000;
    await api(rig, 'DELETE', `/webhooks/${webhook.id}`);
    const receivedPerSecond = backlog / receivedSeconds;
    return {
      deliveries: backlog,
      createOrdersPerSecond,
      receivedPerSecond,
      recordedPerSecond: backlog / recordedSeconds,
      receiverCeiling: ceiling,
      ratioToReceiver: receivedPerSecond / ceiling,
      ratioToCreates: receivedPerSecond / createOrdersPerSecond,
      duplicates: receiver.duplicates(),
    };
  } finally {
    await receiver.close();
  }
}

export function formatWebhookDelivery(result: WebhookDeliveryResult | undefined): string {
  if (!result) return '';
  const f = (value: number, digits = 1) => value.toFixed(digits);
  return [
    `webhook delivery (${result.deliveries} deliveries; absolute figures from a shared, noisy machine):`,
    `  received ${f(result.receivedPerSecond)}/s, recorded ${f(result.recordedPerSecond)}/s; ` +
      `receiver ceiling ${f(result.receiverCeiling, 0)}/s (ratio ${f(result.ratioToReceiver, 3)}); ` +
      `create order while building the backlog ${f(result.createOrdersPerSecond)}/s (ratio ${f(result.ratioToCreates, 2)}); ` +
      `sent twice: ${result.duplicates}`,
  ].join('\n');
}
