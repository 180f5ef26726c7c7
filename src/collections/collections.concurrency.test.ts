import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, setupTestApp, type TestContext } from '../../test/helpers.js';

// On PGlite transactions run one at a time, so only PostgreSQL can race creates against each other.
describe.skipIf(engine !== 'postgres')('collections: generated handles under concurrency', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await setupTestApp();
  });
  afterAll(() => t.close());

  it('50 parallel creates of one title all succeed with 50 distinct handles', async () => {
    const store = await t.newStore();
    const replies = await Promise.all(Array.from({ length: 50 }, () => t.call(store, 'POST', '/collections', { title: 'Same Title' })));
    const statuses = replies.map((reply) => reply.status);
    expect(
      statuses.filter((status) => status !== 201),
      JSON.stringify(replies.find((r) => r.status !== 201)?.body),
    ).toEqual([]);
    const handles = new Set(replies.map((reply) => reply.body.data.handle));
    expect(handles.size).toBe(50);
    for (const handle of handles) expect(handle).toMatch(/^same-title(-\d+)?$/);
    const taken = await t.call(store, 'POST', '/collections', { title: 'Other', handle: 'same-title' });
    expect(taken.status).toBe(400);
    expect(taken.body.error.code).toBe('DUPLICATE_VALUE');
  });
});
