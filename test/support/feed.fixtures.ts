import { sql } from 'kysely';
import { expect } from 'vitest';
import type { TestContext, TestStore } from '../helpers.js';

/** Reading the feed in tests (the feed's own tests and the derived changes'). */

export interface FeedEvent {
  id: string;
  type: string;
  createdAt: string;
  data: { id: string; [key: string]: unknown };
}

/**
 * Waits until every transaction that began before now has ended, so the feed shows all of them. On
 * PostgreSQL any transaction of the cluster (another test run, a bench) holds the feed back while it runs
 * (docs/events.md); a fresh transaction id X is a barrier: once the oldest running xid is above X, all
 * earlier writes are committed or gone.
 */
export async function settled(t: TestContext): Promise<void> {
  const { rows } = await sql<{ xid: string }>`SELECT pg_current_xact_id()::text AS xid`.execute(t.database.db);
  for (let tries = 0; tries < 3000; tries++) {
    const check = await sql<{ done: boolean }>`SELECT pg_snapshot_xmin(pg_current_snapshot()) > ${rows[0].xid}::xid8 AS done`.execute(
      t.database.db,
    );
    if (check.rows[0].done) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The feed helpers of the test app `app()` returns (set in beforeAll, after the file's helpers are made). */
export function feedOf(app: () => TestContext) {
  /** Every event from `cursor` (or the start) to the end of the feed, and the cursor to poll next. */
  async function readOn(store: TestStore, query = '', cursor?: string): Promise<{ events: FeedEvent[]; cursor: string }> {
    const t = app();
    await settled(t);
    const events: FeedEvent[] = [];
    let next = cursor;
    for (;;) {
      const params = [query, next ? `cursor=${encodeURIComponent(next)}` : ''].filter(Boolean).join('&');
      const reply = await t.call(store, 'GET', `/events${params ? `?${params}` : ''}`);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      events.push(...reply.body.data);
      expect(typeof reply.body.pagination.nextCursor).toBe('string');
      next = reply.body.pagination.nextCursor;
      if (!reply.body.pagination.hasMore) return { events, cursor: next as string };
    }
  }

  /** The events `write` appends: the feed read on from its end before the write. */
  async function eventsOf(store: TestStore, write: () => Promise<unknown>): Promise<FeedEvent[]> {
    const { cursor } = await readOn(store);
    await write();
    return (await readOn(store, '', cursor)).events;
  }

  async function body(store: TestStore, method: string, url: string, payload?: unknown) {
    const reply = await app().call(store, method, url, payload);
    if (reply.status >= 300) throw new Error(`${method} ${url}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body.data;
  }

  return { readOn, eventsOf, body };
}
