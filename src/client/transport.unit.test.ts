import { describe, expect, it } from 'vitest';
import { createTransport, retryAfterMs } from './transport.js';

// The retry rules with a fake fetch and a recorded sleep (the real-server tests: client.test.ts).

function scripted(answers: (Response | Error)[]) {
  const requests: Request[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init));
    const answer = answers.shift() ?? new Response('{}', { status: 200 });
    if (answer instanceof Error) throw answer;
    return answer;
  }) as typeof globalThis.fetch;
  const waits: number[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
  };
  return { fetch, requests, waits, sleep };
}

const status = (code: number, headers: Record<string, string> = {}, body: object = {}) =>
  new Response(JSON.stringify(body), { status: code, headers: { 'content-type': 'application/json', ...headers } });

describe('the client transport', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000 + 3000).toUTCString(), 10_000)).toBe(3000);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
  });

  it('sends the bearer credential and one Idempotency-Key per write, the same on every retry', async () => {
    const fake = scripted([status(503, { 'retry-after': '1' }), status(429, { 'retry-after': '2' }), status(201)]);
    const send = createTransport({ credential: 'sfk_x', fetch: fake.fetch, sleep: fake.sleep });
    const response = await send('http://api.test/api/v1/products', { method: 'POST', body: '{"title":"x"}' });
    expect(response.status).toBe(201);
    expect(fake.waits).toEqual([1000, 2000]);
    const keys = fake.requests.map((request) => request.headers.get('idempotency-key'));
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(fake.requests.every((request) => request.headers.get('authorization') === 'Bearer sfk_x')).toBe(true);
    expect(await Promise.all(fake.requests.map((request) => request.text()))).toEqual(Array(3).fill('{"title":"x"}'));
  });

  it('passes the newest Storefront-Consistency token on when asked to, and never unasked', async () => {
    const token = (value: string) => status(200, { 'storefront-consistency': value });
    const answers = () => [token('0/3000100'), token('0/2FFFFFF'), status(200), token('1/0')];
    const calls = async (send: typeof fetch) => {
      await send('http://api.test/api/v1/products', { method: 'POST' });
      // an answer arriving late with an older token does not move the kept one back
      await send('http://api.test/api/v1/products/1', { method: 'PATCH' });
      await send('http://api.test/api/v1/products/1');
      await send('http://api.test/api/v1/products', { headers: { 'storefront-consistency': '0/1' } });
    };
    const asked = scripted(answers());
    await calls(createTransport({ fetch: asked.fetch, sleep: asked.sleep, readYourWrites: true }));
    expect(asked.requests.map((request) => request.headers.get('storefront-consistency'))).toEqual([null, '0/3000100', '0/3000100', '0/1']);
    const unasked = scripted(answers());
    await calls(createTransport({ fetch: unasked.fetch, sleep: unasked.sleep }));
    expect(unasked.requests.map((request) => request.headers.get('storefront-consistency'))).toEqual([null, null, null, '0/1']);
  });

  it("keeps the caller's key, and puts none on reads or on POST /auth", async () => {
    const fake = scripted([]);
    const send = createTransport({ fetch: fake.fetch, sleep: fake.sleep });
    await send('http://api.test/api/v1/products', { method: 'POST', headers: { 'idempotency-key': 'mine' } });
    await send('http://api.test/api/v1/products');
    await send('http://api.test/api/v1/auth', { method: 'POST' });
    expect(fake.requests.map((request) => request.headers.get('idempotency-key'))).toEqual(['mine', null, null]);
  });

  it('gives up after the last attempt, and does not wait for a Retry-After beyond the cap', async () => {
    const fake = scripted([status(429), status(429), status(429)]);
    const send = createTransport({ fetch: fake.fetch, sleep: fake.sleep, retries: 2, baseDelayMs: 100 });
    expect((await send('http://api.test/x')).status).toBe(429);
    expect(fake.requests).toHaveLength(3);
    expect(fake.waits.every((ms) => ms >= 0 && ms <= 400)).toBe(true);
    const far = scripted([status(429, { 'retry-after': '3600' })]);
    const capped = createTransport({ fetch: far.fetch, sleep: far.sleep, maxDelayMs: 60_000 });
    expect((await capped('http://api.test/x')).status).toBe(429);
    expect(far.requests).toHaveLength(1);
  });

  it('retries network errors on reads and keyed writes, and a 409 only when the key is in use', async () => {
    const fake = scripted([
      new TypeError('fetch failed'),
      status(409, { 'retry-after': '1' }, { error: { code: 'IDEMPOTENCY_KEY_IN_USE' } }),
      status(201),
    ]);
    const send = createTransport({ fetch: fake.fetch, sleep: fake.sleep });
    expect((await send('http://api.test/x', { method: 'PATCH', body: '{}' })).status).toBe(201);
    expect(fake.requests).toHaveLength(3);
    const conflict = scripted([status(409, {}, { error: { code: 'CONFLICT' } })]);
    expect((await createTransport({ fetch: conflict.fetch, sleep: conflict.sleep })('http://api.test/x', { method: 'POST' })).status).toBe(
      409,
    );
    expect(conflict.requests).toHaveLength(1);
  });

  it('sends a streamed body once (it cannot be replayed)', async () => {
    const fake = scripted([status(503, { 'retry-after': '1' })]);
    const send = createTransport({ fetch: fake.fetch, sleep: fake.sleep });
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"title":"a"}\n'));
        controller.close();
      },
    });
    const response = await send('http://api.test/x', { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(response.status).toBe(503);
    expect(fake.requests).toHaveLength(1);
  });
});
