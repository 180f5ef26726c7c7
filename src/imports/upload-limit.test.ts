import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { NDJSON } from '../../test/support/jobs.fixtures.js';

/**
 * At most 2 import bodies are received per store at once, in every process together: the third is a 429
 * with Retry-After before its body is read, and another store uploads meanwhile.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

/** An upload whose body keeps coming until `end()`: it holds its slot all that time. */
function slowUpload(app: TestContext, store: TestStore) {
  const body = new PassThrough();
  body.write(`${JSON.stringify({ title: 'First', price: 1 })}\n`);
  const reply = app.app.inject({
    method: 'POST',
    url: '/api/v1/imports?resource=products',
    headers: { authorization: `Bearer ${store.token}`, ...NDJSON },
    payload: body,
  });
  return {
    reply,
    end: async () => {
      body.end(`${JSON.stringify({ title: 'Last', price: 2 })}\n`);
      return reply;
    },
  };
}

const heldSlots = async (store: TestStore) =>
  Number(
    (
      await sql<{ n: string }>`SELECT count(*)::text AS n FROM store_slots
        WHERE store_id = ${store.id} AND kind = 'upload' AND lease_until > now()`.execute(t.database.db)
    ).rows[0].n,
  );

async function untilHeld(store: TestStore, count: number): Promise<void> {
  for (let tries = 0; tries < 600 && (await heldSlots(store)) !== count; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(await heldSlots(store)).toBe(count);
}

describe('uploads per store', () => {
  it("a store's third upload at once is a 429 with Retry-After, before its body is read; another store's goes on", async () => {
    const [a, b] = [await t.newStore(), await t.newStore()];
    const first = slowUpload(t, a);
    const second = slowUpload(t, a);
    await untilHeld(a, 2);

    // A body that never ends: only a refusal that reads none of it can answer.
    const third = slowUpload(t, a);
    const refused = await third.reply;
    expectError({ status: refused.statusCode, body: refused.json(), headers: refused.headers }, 429, 'RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    const other = await t.call(b, 'POST', '/imports?resource=products', '{"title":"B","price":1}\n', NDJSON);
    expect(other.status).toBe(202);

    expect((await first.end()).statusCode).toBe(202);
    expect((await second.end()).statusCode).toBe(202);
    // the slots are free again once the bodies are in
    await untilHeld(a, 0);
    expect((await t.call(a, 'POST', '/imports?resource=products', '{"title":"C","price":1}\n', NDJSON)).status).toBe(202);
  });

  it.runIf(engine === 'postgres')('the limit holds across processes: two apps on one database share the store’s slots', async () => {
    const other = await setupTestApp({ jwtSecret: t.config.jwtSecret });
    try {
      const a = await t.newStore();
      const first = slowUpload(t, a);
      const second = slowUpload(other, a);
      await untilHeld(a, 2);
      expect((await t.call(a, 'POST', '/imports?resource=products', '{"title":"X","price":1}\n', NDJSON)).status).toBe(429);
      expect((await other.call(a, 'POST', '/imports?resource=products', '{"title":"X","price":1}\n', NDJSON)).status).toBe(429);
      expect((await first.end()).statusCode).toBe(202);
      expect((await second.end()).statusCode).toBe(202);
    } finally {
      await other.close();
    }
  });
});
