import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from './database.js';
import type { PgliteWorkerClient } from './pglite-client.js';

/** What a subscriber to a notification channel (LISTEN) is told. */
export interface NotificationHandlers {
  /** a payload sent on the channel (`NOTIFY` / `pg_notify`) by a committed transaction */
  message(payload: string): void;
  /** messages may have been missed (the listener went down, or has just come up): drop what depends on them */
  reset(): void;
}

export interface Listener {
  /** true while every message on the channel reaches this process: only then may what depends on them be trusted */
  live(): boolean;
  /** PostgreSQL: the server process of the listening session (tests terminate it); else null */
  backendPid(): number | null;
  close(): Promise<void>;
}

/** Channel names are our own constants, never input: they go into LISTEN as identifiers. */
const CHANNEL = /^[a-z_][a-z0-9_]*$/;

function assertChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`not a channel name: ${channel}`);
}

/** Backoff between reconnection attempts of the listener connection, milliseconds. */
const RECONNECT_MS = [100, 250, 500, 1000, 2000];
/**
 * A connection that died without a word (a half-open socket) would keep the cache trusted while it missed
 * messages: the listener asks the server something this often, and a slow or failed answer counts as lost.
 */
const HEARTBEAT_MS = 5000;
const HEARTBEAT_TIMEOUT_MS = 3000;

interface Subscription {
  channel: string;
  handlers: NotificationHandlers;
  /** its LISTEN has been answered on the current connection */
  listening: boolean;
}

/**
 * PostgreSQL: the process's one listening connection, outside the pool (LISTEN belongs to a session, and a
 * pooled session is handed to whichever request comes next), shared by every channel the process listens on
 * (credentials, webhook and job wake-ups, the feed's long polls): one connection per process, however many
 * subscribers. It opens with the first subscription and closes with the last. While it is down no
 * subscription is `live()`; each time it comes up, every subscriber's `reset()` runs first, since messages
 * sent while it was down are lost for good.
 */
export function postgresListener(url: string): { listen(channel: string, handlers: NotificationHandlers): Listener } {
  const subscriptions = new Set<Subscription>();
  // Each run of the connection loop has its number; stopping moves it on, so a stopped loop never carries on
  // beside one a later subscriber started.
  let generation = 0;
  let active = false;
  let connected = false;
  let current: pg.Client | null = null;
  let starting: pg.Client | null = null;
  let wake: () => void = () => undefined;
  let running: Promise<void> = Promise.resolve();

  const channels = () => [...new Set([...subscriptions].map((subscription) => subscription.channel))];
  function lost(): void {
    for (const subscription of subscriptions) {
      subscription.listening = false;
      subscription.handlers.reset();
    }
  }

  async function listenOnce(mine: number): Promise<boolean> {
    const client = new pg.Client({
      connectionString: url,
      application_name: `storefront-listener-${process.pid}`,
      connectionTimeoutMillis: 5000,
      query_timeout: HEARTBEAT_TIMEOUT_MS,
      keepAlive: true,
    });
    client.on('notification', (message) => {
      for (const subscription of subscriptions) {
        if (subscription.channel === message.channel && subscription.listening) subscription.handlers.message(message.payload ?? '');
      }
    });
    // Registered before connecting, so no error or end between two steps goes unheard.
    let heartbeat: NodeJS.Timeout | undefined;
    const ended = new Promise<void>((resolve) => {
      wake = resolve;
      client.on('error', () => resolve()).on('end', () => resolve());
    });
    let served = false;
    try {
      starting = client;
      await client.connect();
      const listening = [...subscriptions];
      for (const channel of channels()) await client.query(`LISTEN ${channel}`);
      starting = null;
      if (mine === generation) {
        current = client;
        connected = true;
        heartbeat = setInterval(() => void client.query('select 1').catch(wake), HEARTBEAT_MS);
        for (const subscription of subscriptions) {
          if (!listening.includes(subscription))
            void join(subscription, client); // came while this one was starting
          else if (!subscription.listening) {
            subscription.handlers.reset();
            subscription.listening = true;
          }
        }
        served = true;
        await ended;
      }
    } catch {
      // refused, timed out or dropped while starting: the caller tries again after a pause
    }
    starting = null;
    clearInterval(heartbeat);
    connected = false;
    current = null;
    lost();
    await client.end().catch(() => undefined);
    return served;
  }

  async function run(mine: number): Promise<void> {
    let failures = 0;
    while (mine === generation) {
      failures = (await listenOnce(mine)) ? 0 : failures + 1;
      if (mine !== generation) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)]);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** A channel subscribed while the connection is up is listened on it at once (else at the next connect). */
  async function join(subscription: Subscription, client: pg.Client): Promise<void> {
    try {
      await client.query(`LISTEN ${subscription.channel}`);
    } catch {
      return; // the connection is going: the next one listens on it
    }
    if (current !== client || !subscriptions.has(subscription) || subscription.listening) return;
    subscription.handlers.reset();
    subscription.listening = true;
  }

  async function stop(): Promise<void> {
    active = false;
    generation++;
    wake();
    // a connection attempt to a database that does not answer must not hold up the stop
    void starting?.end().catch(() => undefined);
    await running;
  }

  return {
    listen(channel, handlers) {
      assertChannel(channel);
      const subscription: Subscription = { channel, handlers, listening: false };
      subscriptions.add(subscription);
      if (!active) {
        active = true;
        running = run(++generation);
      } else if (current && connected) void join(subscription, current);
      return {
        live: () => connected && subscription.listening,
        backendPid: () => (current as unknown as { processID?: number } | null)?.processID ?? null,
        close: async () => {
          if (!subscriptions.delete(subscription)) return;
          subscription.listening = false;
          const client = current;
          if (!subscriptions.size) await stop();
          else if (client && !channels().includes(channel)) await client.query(`UNLISTEN ${channel}`).catch(() => undefined);
        },
      };
    },
  };
}

/**
 * PGlite: one process and one session, so LISTEN on the engine's own session hears every commit; the
 * worker forwards notifications as messages, ahead of the result of the statement that committed them.
 */
export function listenPglite(client: PgliteWorkerClient, db: Db, channel: string, handlers: NotificationHandlers): Listener {
  assertChannel(channel);
  let live = false;
  const off = client.onNotification((name, payload) => {
    if (name === channel) handlers.message(payload);
  });
  const listening = sql
    .raw(`LISTEN ${channel}`)
    .execute(db)
    .then(
      () => {
        handlers.reset();
        live = true;
      },
      () => undefined,
    );
  return {
    live: () => live && client.open,
    backendPid: () => null,
    close: async () => {
      await listening;
      live = false;
      off();
    },
  };
}
