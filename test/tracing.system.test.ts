import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './support/otlp-receiver.js';
import { createOwnDatabase, type OwnDatabase } from './support/own-database.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';
import { eventually, request, seedStore } from './support/storefront-client.js';

/**
 * Traces from a real `storefront serve` with OTEL_EXPORTER_OTLP_ENDPOINT set, received by a small OTLP/HTTP
 * (JSON) receiver: a request's span (route template, status, request id) with its statements as children
 * in the same trace, a webhook attempt's span, an import's job batch spans, no parameter value in any span.
 */

const postgresUrl = process.env.TEST_DATABASE_URL;
if (!postgresUrl) console.warn('tracing.system.test.ts: skipped (needs TEST_DATABASE_URL)');

const SECRET_TITLE = `Unlisted ${randomBytes(6).toString('hex')}`;

describe.skipIf(!postgresUrl)('OpenTelemetry traces over OTLP/HTTP', () => {
  let own: OwnDatabase;
  let receiver: OtlpReceiver;
  let server: ServerProcess;
  let hooks: Server;
  let hookUrl: string;
  let token: string;
  const delivered: string[] = [];

  beforeAll(async () => {
    own = await createOwnDatabase(postgresUrl as string, 'storefront_tracing', inject('postgresTemplate'));
    receiver = await startOtlpReceiver();
    hooks = createServer((req, res) => {
      delivered.push(String(req.headers['webhook-id']));
      req.resume().on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(hooks.address() as { port: number }).port}/hook`;
    const jwtSecret = randomBytes(32).toString('hex');
    ({ token } = await seedStore(own.url, jwtSecret));
    server = await startServerProcess({
      DATABASE_URL: own.url,
      STOREFRONT_JWT_SECRET: jwtSecret,
      STOREFRONT_WEBHOOK_ALLOW_PRIVATE: 'true',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'storefront-under-test',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
  }, 120_000);

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await receiver?.close();
    await new Promise((resolve) => hooks?.close(resolve));
    await own?.drop();
  });

  const spansNamed = (name: string) => receiver.spans.filter((span) => span.name === name);
  const childrenOf = (parent: ReceivedSpan) =>
    receiver.spans.filter((span) => span.traceId === parent.traceId && span.parentSpanId === parent.spanId);

  it('makes a span per request with its statements as children, values left out', async () => {
    const created = await request(server.base, token, 'POST', '/products', { title: SECRET_TITLE, price: 12 });
    expect(created.status).toBe(201);
    const requestId = `trace-${randomBytes(4).toString('hex')}`;
    const read = await fetch(`${server.base}/api/v1/products/${created.body.data.id}`, {
      headers: { authorization: `Bearer ${token}`, 'x-request-id': requestId },
    });
    expect(read.status).toBe(200);
    const mine = () => receiver.spans.find((span) => span.attributes['storefront.request_id'] === requestId);
    expect(await eventually(async () => Boolean(mine() && childrenOf(mine() as ReceivedSpan).length > 0), 20_000)).toBe(true);
    const span = mine() as ReceivedSpan;
    expect(span).toMatchObject({ name: 'GET /api/v1/products/:id', kind: 2, service: 'storefront-under-test' });
    expect(span.attributes).toMatchObject({
      'http.route': '/api/v1/products/:id',
      'http.response.status_code': 200,
      'http.request.method': 'GET',
    });
    const statements = childrenOf(span);
    expect(statements.every((child) => child.attributes['db.system.name'] === 'postgresql')).toBe(true);
    expect(statements.some((child) => /\bproduct/.test(String(child.attributes['db.query.text'])) && child.name.startsWith('SELECT'))).toBe(
      true,
    );
    // the create's trace: its statements (the event written with the commit included), never the title
    const create = spansNamed('POST /api/v1/products').at(-1) as ReceivedSpan;
    expect(create.attributes['http.response.status_code']).toBe(201);
    expect(childrenOf(create).some((child) => child.name === 'INSERT events')).toBe(true);
    expect(JSON.stringify(receiver.spans)).not.toContain(SECRET_TITLE);
  }, 60_000);

  it('makes a span per webhook attempt', async () => {
    const hook = await request(server.base, token, 'POST', '/webhooks', { url: hookUrl, events: ['product.created'] });
    expect(hook.status).toBe(201);
    const created = await request(server.base, token, 'POST', '/products', { title: 'Hooked', price: 3 });
    expect(created.status).toBe(201);
    const attempt = () => spansNamed('webhook attempt').find((span) => span.attributes['storefront.webhook_id'] === hook.body.data.id);
    expect(await eventually(async () => Boolean(attempt()), 30_000)).toBe(true);
    expect(delivered.length).toBeGreaterThan(0);
    expect(attempt()?.attributes).toMatchObject({
      'storefront.attempt.result': 'succeeded',
      'http.response.status_code': 204,
      'storefront.attempt': 1,
    });
  }, 60_000);

  it('makes a span per job batch, its statements as children', async () => {
    const lines = Array.from({ length: 3 }, (_, i) => JSON.stringify({ title: `Traced import ${i}`, handle: `traced-${i}`, price: 5 }));
    const posted = await fetch(`${server.base}/api/v1/imports?resource=products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
      body: lines.join('\n'),
    });
    expect(posted.status).toBe(202);
    const jobId = (await posted.json()).data.id as string;
    const requestId = posted.headers.get('x-request-id');
    const batch = () => spansNamed('job batch').find((span) => span.attributes['storefront.job_id'] === jobId);
    expect(await eventually(async () => Boolean(batch() && childrenOf(batch() as ReceivedSpan).length > 0), 60_000)).toBe(true);
    expect(batch()?.attributes).toMatchObject({
      'storefront.job.type': 'import',
      'storefront.job.batch': 1,
      'storefront.job.batch_result': 'continue',
    });
    // the batch carries the request id of the POST that started the import
    expect(batch()?.attributes['storefront.request_id']).toBe(requestId);
    expect(childrenOf(batch() as ReceivedSpan).some((child) => child.name === 'INSERT products')).toBe(true);
  }, 90_000);
});
