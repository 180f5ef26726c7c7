import type { Db } from '../db/index.js';
import type { AnswerObserver } from '../http/index.js';
import { startPurgeLoop } from '../shared/index.js';
import { requestLogPurge } from './purge.js';
import { createWriter, type RequestLogWriter, WRITER_DEFAULTS, type WriterOptions } from './writer.js';

interface LogSink {
  debug(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface RequestLog extends Omit<RequestLogWriter, 'record'> {
  /** the observer app.ts hands to observeAnswers: keeps every request whose credential named its store */
  observe: AnswerObserver;
}

/**
 * This process's Requests log (CONTRACT §12): the buffer and its writer, and the prune of the bounds on the
 * shared purge loop. Built by app.ts when STOREFRONT_REQUEST_LOG is on; `close` (the app's onClose) writes
 * what is buffered. Requests no credential named a store for (public routes, refused credentials) belong
 * to no store's log.
 */
export function startRequestLog(db: Db, days: number, log: LogSink, options: Partial<WriterOptions> = {}): RequestLog {
  const written = new Set<string>();
  const writer = createWriter(db, log, { ...WRITER_DEFAULTS, ...options }, (stores) => {
    for (const storeId of stores) written.add(storeId);
  });
  const stopPurge = startPurgeLoop(requestLogPurge(db, written, days), log);
  return {
    observe(answer) {
      if (answer.auth) writer.record(answer, answer.auth);
    },
    flush: writer.flush,
    stats: writer.stats,
    async close() {
      stopPurge();
      await writer.close();
    },
  };
}
