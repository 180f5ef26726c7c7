import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { withTx } from '../db/index.js';

/**
 * The feed's promise under concurrency (docs/events.md): a consumer following nextCursor sees every event
 * exactly once, in commit order, even when a transaction that began earlier commits after a page was read.
 * PGlite runs one transaction at a time, so there writes never interleave and these tests prove nothing.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

interface FeedEvent {
  id: string;
  type: string;
  data: { id: string; writer?: number; n?: number; i?: number };
}

async function page(store: TestStore, cursor: string | undefined, limit: number) {
  const query = `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  const reply = await t.call(store, 'GET', `/events?${query}`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return {
    events: reply.body.data as FeedEvent[],
    cursor: reply.body.pagination.nextCursor as string,
    hasMore: reply.body.pagination.hasMore,
  };
}

/** Reads on from `cursor` until `done()` says the reader has all it waits for (or 20 s pass). */
async function follow(store: TestStore, cursor: string | undefined, limit: number, done: (seen: FeedEvent[]) => boolean) {
  const seen: FeedEvent[] = [];
  const deadline = Date.now() + 20_000;
  let position = cursor;
  while (!done(seen) && Date.now() < deadline) {
    const next = await page(store, position, limit);
    seen.push(...next.events);
    position = next.cursor;
    if (!next.hasMore) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { seen, cursor: position };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function latch() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

const event = (data: object) => ({ type: 'product.updated' as const, data: { id: '000000000000000000000000', ...data } });

describe.skipIf(engine !== 'postgres')('the feed under concurrent writers', () => {
  it('an older transaction that commits after a newer one is neither skipped nor seen out of commit order', async () => {
    const store = await t.newStore();
    const { cursor: start } = await page(store, undefined, 10);
    const appended = latch();
    const release = latch();
    // A: takes its transaction id first (its event is written), then stays open.
    const older = withTx(t.database.db, async (trx) => {
      await t.afterWork.append(trx, store.id, event({ n: 1 }));
      appended.open();
      await release.opened;
    });
    await appended.opened;
    // B: a later transaction, committed while A is still open.
    await withTx(t.database.db, (trx) => t.afterWork.append(trx, store.id, event({ n: 2 })));

    const early = await page(store, start, 10);
    // B is committed but held back: returning it now would move the cursor past A's position.
    expect(early.events).toEqual([]);
    release.open();
    await older;
    const { seen } = await follow(store, early.cursor, 10, (events) => events.length >= 2);
    expect(seen.map((e) => e.data.n)).toEqual([1, 2]);
  });

  it('5 writers, some holding their transactions open, some rolling back: a reader following nextCursor sees every committed event once', {
    repeats: 3,
  }, async () => {
    const store = await t.newStore();
    const { cursor: start } = await page(store, undefined, 3);
    const committed = new Set<string>();
    const writer = async (writer: number) => {
      for (let n = 0; n < 15; n++) {
        const count = 1 + ((writer + n) % 3);
        const rollBack = (writer * 7 + n) % 5 === 0;
        // Every fourth transaction stays open a long while, so newer ones commit around it.
        const hold = n % 4 === writer % 4 ? 150 : Math.floor(Math.random() * 15);
        await withTx(t.database.db, async (trx) => {
          for (let i = 0; i < count; i++) await t.afterWork.append(trx, store.id, event({ writer, n, i }));
          await sleep(hold);
          if (rollBack) throw new Error('rolled back on purpose');
        }).then(
          () => {
            for (let i = 0; i < count; i++) committed.add(`${writer}/${n}/${i}`);
          },
          () => undefined,
        );
      }
    };
    // The fifth writer goes through the API: POST /attribute-sets, one event each.
    const apiWriter = async () => {
      const ids: string[] = [];
      for (let n = 0; n < 15; n++) ids.push((await t.call(store, 'POST', '/attribute-sets', { name: `set-${n}` })).body.data.id);
      return ids;
    };
    let writing = true;
    const writers = Promise.all([Promise.all([0, 1, 2, 3].map(writer)), apiWriter()]).finally(() => {
      writing = false;
    });
    // The reader pages (3 at a time) while the writers run, then reads on until it has everything.
    const reading = follow(store, start, 3, () => !writing);
    const [, setIds] = await writers;
    const expected = committed.size + setIds.length;
    const first = await reading;
    const rest = await follow(store, first.cursor, 3, (events) => first.seen.length + events.length >= expected);
    const seen = [...first.seen, ...rest.seen];

    const keys = seen.filter((e) => e.type === 'product.updated').map((e) => `${e.data.writer}/${e.data.n}/${e.data.i}`);
    expect(new Set(keys).size, 'no event twice').toBe(keys.length);
    expect(keys.sort()).toEqual([...committed].sort());
    expect(seen.filter((e) => e.type === 'attributeSet.created').map((e) => e.data.id)).toEqual(setIds);
    expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
    // A transaction's events come in the order it wrote them.
    const order = seen.filter((e) => e.type === 'product.updated').map((e) => `${e.data.writer}/${e.data.n}/${e.data.i}`);
    for (const [index, key] of order.entries()) {
      const i = Number(key.split('/')[2]);
      if (i > 0) expect(order.indexOf(key.replace(/\/\d+$/, `/${i - 1}`))).toBeLessThan(index);
    }
    // Nothing more arrives later (no duplicate shows up after the end).
    await sleep(100);
    expect((await page(store, rest.cursor, 3)).events).toEqual([]);
  });
});
