import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, setupTestApp, type TestContext, testDatabaseUrl } from '../../test/helpers.js';

// The receiver of docs/events.md (examples/webhook-receiver.mjs), run as its own process against real deliveries.
const EXAMPLE = new URL('../../examples/webhook-receiver.mjs', import.meta.url).pathname;

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp({
    webhookWorker: true,
    webhookAllowPrivate: true,
    webhookTimeoutMs: 5000,
    databaseUrl: engine === 'postgres' ? testDatabaseUrl() : null,
  });
});
afterAll(() => t.close());

/** Starts the example with `secret`; resolves with its port and the lines it printed so far. */
async function startExample(secret: string): Promise<{ child: ChildProcess; port: number; lines: () => string[] }> {
  const child = spawn(process.execPath, [EXAMPLE], { env: { ...process.env, STOREFRONT_WEBHOOK_SECRET: secret, PORT: '0' } });
  let out = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  const lines = () => out.split('\n').filter(Boolean);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the example did not listen: ${out}`)), 20_000);
    child.stdout?.on('data', () => {
      const line = lines().find((l) => l.includes('"listening"'));
      if (!line) return;
      clearTimeout(timer);
      resolve(JSON.parse(line).listening);
    });
  });
  return { child, port, lines };
}

describe('the receiver example of docs/events.md', () => {
  it('verifies and prints a real delivery once, and refuses a forged one', async () => {
    const store = await t.newStore();
    // The webhook is created first (its secret is shown only then), pointing at a port to be filled in.
    const created = await t.call(store, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['product.created'] });
    const example = await startExample(created.body.data.secret);
    try {
      await t.call(store, 'PATCH', `/webhooks/${created.body.data.id}`, { url: `http://127.0.0.1:${example.port}/hook` });
      const product = (await t.call(store, 'POST', '/products', { title: 'Receiver tee' })).body.data;
      const deadline = Date.now() + 20_000;
      while (!example.lines().some((l) => l.includes('"received"')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const received = example
        .lines()
        .filter((l) => l.includes('"received"'))
        .map((l) => JSON.parse(l).received);
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ type: 'product.created', data: { id: product.id, title: 'Receiver tee' } });

      const forged = await fetch(`http://127.0.0.1:${example.port}/hook`, {
        method: 'POST',
        headers: { 'webhook-id': 'x', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
        body: JSON.stringify({ id: 'x', type: 'product.created', data: {} }),
      });
      expect(forged.status).toBe(400);
      const deliveries = () => t.call(store, 'GET', `/webhooks/${created.body.data.id}/deliveries`).then((r) => r.body.data);
      let [delivery] = await deliveries();
      while (delivery.status === 'pending' && Date.now() < deadline) [delivery] = await deliveries();
      expect(delivery).toMatchObject({ status: 'succeeded', lastResponseStatus: 204 });
    } finally {
      example.child.kill();
    }
  });
});
