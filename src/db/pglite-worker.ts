// Runs PGlite off the main thread: its WASM engine blocks whatever thread it runs on.
// Protocol: { id, sql, params? } in; { id, rows, affectedRows } or { id, error } out, and
// { id: -1, notify, payload } for each notification on a channel the session LISTENs on.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PgliteStatements } from './statements/pglite-statements.js';

// 16 MB of shared buffers, not PGlite's 160 MB nor our former 32 MB: buffers once touched stay resident in the
// WASM heap. An idle embedded server measured 295 → 238 MB at 16 MB (compiled build, restarted on a migrated
// data dir; 187 MB with the launcher's --liftoff-only); the OS page cache still holds the data files
// (docs/decisions.md, "The embedded engine's memory").
const SHARED_BUFFERS = '16MB';
// ANALYZE holds 300 × the statistics target rows, whole, in the WASM heap, which never gives memory back. A
// products row is ~1.7 KB (images, options, custom fields, search text), a 2 KB allocation: at the default
// target of 100 the 30,000-row sample of a catalog of 30,000+ products touched ~77 MB (the other tables'
// ANALYZE and a VACUUM 9–21 MB), and a fresh database's import analyzes it as it grows. At 30 it is ~25 MB,
// and the catalog's plans (list pages, search, status filters) came out the same (docs/decisions.md,
// "PGlite's statistics target"). Per-column targets (0021, 0022) still win over it.
const STATISTICS_TARGET = '30';

interface Request {
  id: number;
  sql: string;
  params?: unknown[];
  close?: boolean;
}

function serializeError(error: unknown): Record<string, unknown> {
  const e = error as Record<string, unknown> & Error;
  return { message: e.message, code: e.code, constraint: e.constraint, detail: e.detail, column: e.column };
}

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('pglite-worker must run in a worker thread');
  let db: PGlite;
  try {
    db = await PGlite.create({
      dataDir: workerData.dataDir as string,
      // btree_gin: search indexes that lead with store_id (migrations/0006).
      extensions: { pg_trgm, btree_gin },
      startParams: [
        ...PGlite.defaultStartParams,
        ...['-c', `shared_buffers=${SHARED_BUFFERS}`, '-c', `default_statistics_target=${STATISTICS_TARGET}`],
      ],
    });
  } catch (error) {
    port.postMessage({ id: 0, error: serializeError(error) });
    return;
  }
  // PGlite hands notifications over while it reads a statement's result, before that statement resolves,
  // so the main thread hears of a commit's NOTIFY before it hears that the commit is done.
  db.onNotification((channel, payload) => port.postMessage({ id: -1, notify: channel, payload }));
  // Statements with parameters: prepared once per session (pglite-statements.ts), not parsed on every run.
  const statements = new PgliteStatements(db);
  port.postMessage({ id: 0, ready: true });
  port.on('message', async (request: Request) => {
    if (request.close) {
      await db.close().catch(() => undefined);
      port.postMessage({ id: request.id, rows: [], affectedRows: 0 });
      port.close();
      return;
    }
    try {
      // Like node-postgres: without parameters the simple protocol runs, so a script may hold many statements.
      const result = request.params?.length ? await statements.query(request.sql, request.params) : (await db.exec(request.sql)).at(-1);
      port.postMessage({ id: request.id, rows: result?.rows ?? [], affectedRows: result?.affectedRows ?? 0 });
    } catch (error) {
      port.postMessage({ id: request.id, error: serializeError(error) });
    }
  });
}

void main();
