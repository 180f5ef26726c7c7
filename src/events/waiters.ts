import type { Database, Db } from '../db/index.js';
import { FEED_CHANNEL, feedEnds } from './events.sql.js';
import { isAfter, type Position } from './types.js';

/**
 * The feed's long polls (`GET /events?wait=`) of one process, held in memory until their store's feed shows
 * an event after their position. What wakes them is the database's NOTIFY of each append (FEED_CHANNEL,
 * payload: the store id), heard on the database's listener: a commit makes the process ask once, for the
 * whole store, where the feed now ends (`feedEnds`), and every waiter before that end is answered. A waiter
 * costs a closure and a set entry: no connection, no query while it waits, no timer of its own (one ticker
 * for all of them ends those whose time is up).
 *
 * The feed shows a transaction's events only once every older transaction has ended (commit order,
 * docs/events.md), so a commit's NOTIFY may arrive while its events are still held back, and the older
 * transaction's end may announce nothing. While a store's newest event is not yet visible, the store is asked
 * again every RECHECK_MS (one timer per store, not per waiter). While the listener is down (messages may be
 * lost), every store with waiters is asked every POLL_MS.
 */
export type WaitOutcome = { kind: 'event'; visible: Position } | { kind: 'timeout' } | { kind: 'closed' };

export interface FeedWaiters {
  /**
   * Resolves once the store's feed shows an event after `after` (`visible`: where it then ends), when
   * `deadline` (epoch ms) passes, when `signal` aborts (the client went away) or when the waiters are closed.
   */
  wait(storeId: string, after: Position, deadline: number, signal?: AbortSignal): Promise<WaitOutcome>;
  /**
   * The page of a woken waiter, read once for all the waiters woken by the same check with the same position
   * and filter (`key`): a thousand long polls on one cursor cost one query per commit, not a thousand. Only
   * waiters woken by one check share, so each shared read began after the event that woke them was shown.
   */
  readOnce<T>(key: string, read: () => Promise<T>): Promise<T>;
  /** waiters now held (the measurement and tests read it) */
  count(): number;
  /** answers every waiter (`closed`) and refuses new ones: the server is stopping */
  release(): void;
  close(): Promise<void>;
}

interface Waiter {
  after: Position;
  deadline: number;
  done(outcome: WaitOutcome): void;
}

interface StoreWaiters {
  waiters: Set<Waiter>;
  checking: boolean;
  again: boolean;
  recheck: NodeJS.Timeout | null;
}

const TICK_MS = 100;
const RECHECK_MS = 100;
const POLL_MS = 1000;

export function createFeedWaiters(db: Db, listen: Database['listen'], log: { warn(object: object, message: string): void }): FeedWaiters {
  const stores = new Map<string, StoreWaiters>();
  let released = false;
  let ticker: NodeJS.Timeout | null = null;
  let lastPoll = 0;
  let held = 0;
  const reading = new Map<string, Promise<unknown>>();

  const listener = listen(FEED_CHANNEL, {
    message: (storeId) => check(storeId),
    // messages may have been lost while the listener was down: every store asks again
    reset: () => {
      for (const storeId of stores.keys()) check(storeId);
    },
  });

  function finish(storeId: string, waiter: Waiter, outcome: WaitOutcome): void {
    const store = stores.get(storeId);
    if (!store?.waiters.delete(waiter)) return;
    held--;
    if (!store.waiters.size) {
      if (store.recheck) clearTimeout(store.recheck);
      stores.delete(storeId);
    }
    if (!held && ticker) {
      clearInterval(ticker);
      ticker = null;
    }
    waiter.done(outcome);
  }

  /** Asks where the store's feed ends, answers the waiters before it; one question per store at a time. */
  function check(storeId: string): void {
    const store = stores.get(storeId);
    if (!store) return;
    if (store.checking) {
      store.again = true;
      return;
    }
    store.checking = true;
    store.again = false;
    feedEnds(db, storeId)
      .then(({ visible, newest }) => {
        if (visible) {
          for (const waiter of store.waiters) if (isAfter(visible, waiter.after)) finish(storeId, waiter, { kind: 'event', visible });
        }
        const heldBack = newest !== null && (visible === null || isAfter(newest, visible));
        if (heldBack && store.waiters.size && !store.recheck) {
          store.recheck = setTimeout(() => {
            store.recheck = null;
            check(storeId);
          }, RECHECK_MS);
        }
      })
      .catch((error) => log.warn({ err: error, storeId }, 'event feed: checking for waiters failed (asked again at the next poll)'))
      .finally(() => {
        store.checking = false;
        if (store.again) check(storeId);
      });
  }

  function tick(): void {
    const now = Date.now();
    for (const [storeId, store] of stores) {
      for (const waiter of store.waiters) if (waiter.deadline <= now) finish(storeId, waiter, { kind: 'timeout' });
    }
    if (!listener.live() && now - lastPoll >= POLL_MS) {
      lastPoll = now;
      for (const storeId of stores.keys()) check(storeId);
    }
  }

  return {
    wait(storeId, after, deadline, signal) {
      if (released || signal?.aborted) return Promise.resolve({ kind: 'closed' });
      return new Promise<WaitOutcome>((resolve) => {
        const waiter: Waiter = { after, deadline, done: resolve };
        let store = stores.get(storeId);
        if (!store) {
          store = { waiters: new Set(), checking: false, again: false, recheck: null };
          stores.set(storeId, store);
        }
        store.waiters.add(waiter);
        held++;
        ticker ??= setInterval(tick, TICK_MS);
        signal?.addEventListener('abort', () => finish(storeId, waiter, { kind: 'closed' }), { once: true });
        // What committed between the caller's read and now sent its NOTIFY before this waiter was here.
        check(storeId);
      });
    },
    readOnce<T>(key: string, read: () => Promise<T>): Promise<T> {
      const running = reading.get(key);
      if (running) return running as Promise<T>;
      const started = read().finally(() => reading.delete(key));
      reading.set(key, started);
      return started;
    },
    count: () => held,
    release() {
      released = true;
      for (const [storeId, store] of stores) for (const waiter of store.waiters) finish(storeId, waiter, { kind: 'closed' });
    },
    async close() {
      this.release();
      await listener.close();
    },
  };
}
