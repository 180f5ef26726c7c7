import { Worker } from 'node:worker_threads';

export interface QueryResult {
  rows: Record<string, unknown>[];
  affectedRows: number;
}

interface Pending {
  resolve: (result: QueryResult) => void;
  reject: (error: Error) => void;
}

export class DatabaseError extends Error {
  code?: string;
  constraint?: string;
  detail?: string;
}

function toError(raw: Record<string, unknown>): DatabaseError {
  const error = new DatabaseError(String(raw.message ?? 'database error'));
  error.code = raw.code as string | undefined;
  error.constraint = raw.constraint as string | undefined;
  error.detail = raw.detail as string | undefined;
  return error;
}

/** Main-thread side of the PGlite worker: one message per statement, answers matched by id. */
export class PgliteWorkerClient {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private readonly notificationHandlers = new Set<(channel: string, payload: string) => void>();
  private nextId = 1;
  private closed = false;
  readonly ready: Promise<void>;

  constructor(dataDir: string) {
    const isTs = import.meta.url.endsWith('.ts');
    const entry = new URL(`./pglite-worker.${isTs ? 'ts' : 'js'}`, import.meta.url);
    const file = isTs ? new URL('./ts-worker-boot.mjs', import.meta.url) : entry;
    this.worker = new Worker(file, { workerData: { dataDir, entry: entry.href } });
    this.ready = new Promise((resolve, reject) => {
      this.pending.set(0, { resolve: () => resolve(), reject });
    });
    this.worker.on(
      'message',
      (message: { id: number; error?: Record<string, unknown>; notify?: string; payload?: string } & QueryResult) => {
        if (message.notify !== undefined) {
          for (const handler of this.notificationHandlers) handler(message.notify, message.payload ?? '');
          return;
        }
        const waiter = this.pending.get(message.id);
        if (!waiter) return;
        this.pending.delete(message.id);
        if (message.error) waiter.reject(toError(message.error));
        else waiter.resolve(message);
      },
    );
    this.worker.on('error', (error) => this.failAll(error));
    this.worker.on('exit', () => this.failAll(new DatabaseError('the embedded database stopped')));
  }

  private failAll(error: Error): void {
    this.closed = true;
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }

  get open(): boolean {
    return !this.closed;
  }

  /** NOTIFY payloads of the channels the session LISTENs on; returns the unsubscribe. */
  onNotification(handler: (channel: string, payload: string) => void): () => void {
    this.notificationHandlers.add(handler);
    return () => this.notificationHandlers.delete(handler);
  }

  query(sql: string, params: readonly unknown[] = []): Promise<QueryResult> {
    if (this.closed) return Promise.reject(Object.assign(new DatabaseError('the embedded database is closed'), { code: '57P01' }));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, sql, params });
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    const id = this.nextId++;
    await new Promise<void>((resolve) => {
      this.pending.set(id, { resolve: () => resolve(), reject: () => resolve() });
      this.worker.postMessage({ id, sql: '', close: true });
    });
    this.closed = true;
    await this.worker.terminate();
  }
}
