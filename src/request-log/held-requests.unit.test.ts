import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { Answer, Auth } from '../http/index.js';
import { createHeldRequests } from './held-requests.js';

// a collection before each sample, so the figures are what is retained, not garbage not yet collected
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const retainedBytes = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

const auth: Auth = { storeId: 'st_1', scopes: [], kind: 'key', principal: 'key_1', name: 'reader' };
const answerOf = (n: number): Answer => ({
  method: 'GET',
  route: '/api/v1/products',
  status: n % 7 === 0 ? 404 : 200,
  ms: n / 3,
  at: new Date(1_700_000_000_000 + n),
  // a request id of its own per request, as randomUUID gives: what a buffer that kept taken rows would keep
  requestId: `request-${n}-${'x'.repeat(40)}`,
  auth,
  idempotencyKey: n % 5 === 0 ? `key-${n}` : null,
  errorCode: n % 7 === 0 ? 'NOT_FOUND' : null,
});

describe('the Requests log buffer (held-requests.ts)', () => {
  it('hands over the oldest rows in order as columns, and refuses a request past its capacity', () => {
    const held = createHeldRequests(5);
    for (let n = 0; n < 6; n++) expect(held.push(answerOf(n), auth)).toBe(n < 5);
    const first = held.take(3);
    expect(first.requestIds).toEqual([0, 1, 2].map((n) => answerOf(n).requestId));
    expect(first).toMatchObject({ statuses: [404, 200, 200], durationsMs: [0, 1 / 3, 2 / 3], idempotencyKeys: ['key-0', null, null] });
    expect(first.atMs).toEqual([1_700_000_000_000, 1_700_000_000_001, 1_700_000_000_002]);
    expect(held.size).toBe(2);
    expect(held.push(answerOf(9), auth)).toBe(true);
    expect(held.take(10).requestIds).toEqual([3, 4, 9].map((n) => answerOf(n).requestId));
    expect(held.size).toBe(0);
  });

  // Issue 42: the old generation grows to 1.5× the live heap, so memory an idle server holds costs 1.5× at the peak.
  it('holds memory for the requests it holds, none for its capacity nor for rows a batch took', () => {
    const before = retainedBytes();
    const held = createHeldRequests(100_000);
    // 100,000 preallocated slots of ten columns would be ~6 MB
    expect(retainedBytes() - before).toBeLessThan(100_000);
    for (let n = 0; n < 50_000; n++) held.push(answerOf(n), auth);
    // 50,000 requests' own strings (~100 bytes each) and their columns are held while they wait
    expect(retainedBytes() - before).toBeGreaterThan(5_000_000);
    while (held.size > 0) held.take(500);
    // once written, nothing of them: a buffer that kept its slots (or their request ids) would hold megabytes
    expect(retainedBytes() - before).toBeLessThan(100_000);
    expect(held.push(answerOf(1), auth)).toBe(true);
  });
});
