import type { Db } from '../db/index.js';
import type { Answer, Auth } from '../http/index.js';
import { createHeldRequests } from './held-requests.js';
import { insertRequests, type RequestLogColumns } from './request-log.sql.js';

export interface WriterOptions {
  /** the buffer is written at least this often */
  flushMs: number;
  /** rows per INSERT; a buffer this full is written without waiting for the timer */
  batchRows: number;
  /** rows held at most: beyond, a request is dropped (and counted), never buffered */
  maxBuffered: number;
}

export const WRITER_DEFAULTS: WriterOptions = { flushMs: 1000, batchRows: 500, maxBuffered: 10_000 };

interface WriterLog {
  warn(object: object, message: string): void;
}

export interface WriterStats {
  written: number;
  dropped: number;
  buffered: number;
}

export interface RequestLogWriter {
  /** keeps one answer of `auth`'s store in memory; never waits and never throws */
  record(answer: Answer, auth: Auth): void;
  /** writes everything buffered so far (and what arrives meanwhile) */
  flush(): Promise<void>;
  /** stops the timer and writes what is left: the graceful stop */
  close(): Promise<void>;
  stats(): WriterStats;
}

const FOREIGN_KEY_VIOLATION = '23503';

/**
 * The in-process buffer of this process's requests (columns that grow with what is held, held-requests.ts), written in batches (one
 * INSERT of array parameters each) by a timer or when a batch is full, one write at a time. Every process has its own; their batches interleave in the
 * table. A failed write is logged and its rows counted as dropped: the log is for looking, and a request's
 * answer never waits on it. `onWritten` hears which stores each batch wrote to (the prune's worklist).
 */
export function createWriter(db: Db, log: WriterLog, options: WriterOptions, onWritten: (storeIds: Set<string>) => void): RequestLogWriter {
  const held = createHeldRequests(options.maxBuffered);
  let draining: Promise<void> | null = null;
  let closed = false;
  const stats = { written: 0, dropped: 0 };

  async function write(batch: RequestLogColumns, retry = true): Promise<void> {
    try {
      stats.written += await insertRequests(db, batch);
    } catch (error) {
      // A store deleted between the statement's check and its insert: once more, and it is left out.
      if (retry && (error as { code?: string }).code === FOREIGN_KEY_VIOLATION) return write(batch, false);
      stats.dropped += batch.storeIds.length;
      log.warn({ err: error, rows: batch.storeIds.length }, 'request log: writing a batch failed, its rows are dropped');
      return;
    }
    onWritten(new Set(batch.storeIds));
  }

  async function drain(): Promise<void> {
    while (held.size > 0) await write(held.take(options.batchRows));
  }

  function flush(): Promise<void> {
    draining ??= drain().finally(() => {
      draining = null;
    });
    return draining;
  }

  const timer = setInterval(() => void flush(), options.flushMs);
  timer.unref();

  return {
    record(answer, auth) {
      if (closed || !held.push(answer, auth)) {
        stats.dropped++;
        return;
      }
      if (held.size >= options.batchRows) void flush();
    },
    flush,
    async close() {
      closed = true;
      clearInterval(timer);
      await flush();
    },
    stats: () => ({ ...stats, buffered: held.size }),
  };
}
