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

/**
 * PostgreSQL: one dedicated connection per process, outside the pool (LISTEN belongs to a session, and a
 * pooled session is handed to whichever request comes next). While it is down `live()` is false; each
 * time it comes up, `reset()` runs first, since messages sent while it was down are lost for good.
 */
export function listenPostgres(url: string, channel: string, handlers: NotificationHandlers): Listener {
  assertChannel(channel);
  let closed = false;
  let live = false;
  let current: pg.Client | null = null;
  let starting: pg.Client | null = null;
  let wake: () => void = () => undefined;

  async function listenOnce(): Promise<boolean> {
    const client = new pg.Client({
      connectionString: url,
      application_name: `storefront-listener-${process.pid}`,
      connectionTimeoutMillis: 5000,
      query_timeout: HEARTBEAT_TIMEOUT_MS,
      keepAlive: true,
    });
    client.on('notification', (message) => {
      if (message.channel === channel) handlers.message(message.payload ?? '');
    });
    // Registered before connecting, so no error or end between two steps goes unheard.
    let heartbeat: NodeJS.Timeout | undefined;
    const lost = new Promise<void>((resolve) => {
      wake = resolve;
      client.on('error', () => resolve()).on('end', () => resolve());
    });
    let served = false;
    try {
      starting = client;
      await client.connect();
      await client.query(`LISTEN ${channel}`);
      starting = null;
      if (!closed) {
        current = client;
        heartbeat = setInterval(() => void client.query('select 1').catch(wake), HEARTBEAT_MS);
        handlers.reset();
        live = true;
        served = true;
        await lost;
      }
    } catch {
      // refused, timed out or dropped while starting: the caller tries again after a pause
    }
    starting = null;
    clearInterval(heartbeat);
    live = false;
    current = null;
    handlers.reset();
    await client.end().catch(() => undefined);
    return served;
  }

  async function run(): Promise<void> {
    let failures = 0;
    while (!closed) {
      failures = (await listenOnce()) ? 0 : failures + 1;
      if (closed) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)]);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  const running = run();
  return {
    live: () => live,
    backendPid: () => (current as unknown as { processID?: number } | null)?.processID ?? null,
    close: async () => {
      closed = true;
      live = false;
      wake();
      // a connection attempt to a database that does not answer must not hold up the stop
      void starting?.end().catch(() => undefined);
      await running;
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
