import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { engine, testDatabaseUrl } from '../../test/helpers.js';
import { postgresListener } from './notifications.js';

/** pg's own state: a query waiting or running on the client (what its deprecated queue would hold). */
type ClientState = { _activeQuery: unknown; _queryQueue: unknown[] };

const untilLive = async (live: () => boolean) => {
  for (let waited = 0; !live() && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(live()).toBe(true);
};

describe.runIf(engine === 'postgres')('the listener connection (PostgreSQL)', () => {
  it('sends one query at a time, however many subscribers join and leave at once (pg 9 drops its queue)', async () => {
    const original = pg.Client.prototype.query;
    let overlapping = 0;
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const state = this as unknown as ClientState;
      if (state._activeQuery || state._queryQueue.length > 0) overlapping++;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original);
    const listener = postgresListener(testDatabaseUrl());
    const handlers = { message: () => undefined, reset: () => undefined };
    const prefix = `probe_${randomBytes(4).toString('hex')}`;
    try {
      const first = [1, 2, 3].map((n) => listener.listen(`${prefix}_${n}`, handlers));
      await untilLive(() => first.every((one) => one.live()));
      const more = [4, 5, 6].map((n) => listener.listen(`${prefix}_${n}`, handlers));
      await Promise.all([first[0]?.close(), first[1]?.close()]);
      await untilLive(() => more.every((one) => one.live()));
      expect(spy).toHaveBeenCalled();
      expect(overlapping).toBe(0);
      await Promise.all([...more, first[2]].map((one) => one?.close()));
    } finally {
      spy.mockRestore();
    }
  });
});
