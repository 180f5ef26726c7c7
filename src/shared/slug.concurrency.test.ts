import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, setupTestApp, type TestContext } from '../../test/helpers.js';

// Generated handles (insertWithFreeSlug) under concurrency, for both resources that have them. On PGlite
// transactions run one at a time, so only PostgreSQL can race creates against each other.
describe.skipIf(engine !== 'postgres').each(['/products', '/collections'])('generated handles of %s under concurrency', (path) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await setupTestApp();
  });
  afterAll(() => t.close());

  it('50 parallel creates of one title all succeed with 50 distinct handles', async () => {
    const store = await t.newStore();
    const replies = await Promise.all(Array.from({ length: 50 }, () => t.call(store, 'POST', path, { title: 'Same Title' })));
    const failed = replies.filter((reply) => reply.status !== 201);
    expect(
      failed.map((reply) => reply.status),
      JSON.stringify(failed[0]?.body),
    ).toEqual([]);
    const handles = new Set(replies.map((reply) => reply.body.data.handle));
    expect(handles.size).toBe(50);
    expect(handles.has('same-title')).toBe(true);
    for (const handle of handles) expect(handle).toMatch(/^same-title(-\d+)?$/);
    // A supplied handle is never suffixed: taken is still a 400.
    const taken = await t.call(store, 'POST', path, { title: 'Other', handle: 'same-title' });
    expect(taken.status).toBe(400);
    expect(taken.body.error.code).toBe('DUPLICATE_VALUE');
  });
});
