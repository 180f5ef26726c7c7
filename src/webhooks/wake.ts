import { EventEmitter } from 'node:events';
import pg from 'pg';
import { WAKE_CHANNEL } from './webhooks.sql.js';

/**
 * How a delivery worker learns, without waiting for its next poll, that deliveries were added: in this
 * process through an emitter; from other processes through PostgreSQL's LISTEN/NOTIFY (the NOTIFY is sent
 * by the adding transaction, so it arrives once that commits). PGlite serves one process: the emitter is enough.
 */
const local = new EventEmitter();
local.setMaxListeners(0);

/**
 * Called inside the adding transaction. On PGlite (one session) the woken worker's claim waits for that
 * transaction to end; on PostgreSQL it would run before the commit and find nothing, so workers there
 * listen to the NOTIFY only.
 */
export function wakeLocalWorkers(): void {
  local.emit('wake');
}

interface WakeLog {
  warn(object: object, message: string): void;
}

/** Calls `wake` on every wake-up; returns the function that stops listening. */
export function listenForWakeUps(databaseUrl: string | null, wake: () => void, log: WakeLog): () => Promise<void> {
  if (!databaseUrl) local.on('wake', wake);
  let client: pg.Client | null = null;
  let stopped = false;
  const connect = async () => {
    if (!databaseUrl || stopped || client) return;
    const next = new pg.Client({ connectionString: databaseUrl });
    // A lost connection only slows wake-ups down to the poll; the next poll reconnects.
    next.on('error', (error) => {
      log.warn({ err: error }, 'webhook wake-up connection lost; polling until it is back');
      if (client === next) client = null;
      next.end().catch(() => undefined);
    });
    next.on('notification', wake);
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${WAKE_CHANNEL}`);
      if (stopped) await next.end();
    } catch (error) {
      log.warn({ err: error }, 'webhook wake-up connection failed; polling until it is back');
      if (client === next) client = null;
      await next.end().catch(() => undefined);
    }
  };
  void connect();
  const timer = setInterval(() => void connect(), 30_000);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    local.off('wake', wake);
    await client?.end().catch(() => undefined);
    client = null;
  };
}
