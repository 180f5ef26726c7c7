import { buildApp } from './app.js';
import type { Config } from './config.js';
import { openMigratedDatabase } from './db/index.js';
import type { App } from './http/index.js';
import type { AfterWork } from './shared/index.js';
import { ensureDemoStore } from './stores/index.js';
import { startTracing } from './tracing/index.js';

/**
 * Requests still running `ms` after the signal are cut (their connections closed), so a stop never
 * waits forever; the exit code then says the stop was not clean. If the process still has not exited
 * 5 s later, it exits with 1 at once.
 */
function forceCloseAfter(app: App, ms: number): { cancel(): void; forced(): boolean } {
  let forced = false;
  const timer = setTimeout(() => {
    forced = true;
    app.log.error({ afterMs: ms }, 'shutting down: requests still running, closing their connections (STOREFRONT_SHUTDOWN_TIMEOUT_MS)');
    app.server.closeAllConnections();
    setTimeout(() => process.exit(1), 5_000).unref();
  }, ms);
  timer.unref();
  return { cancel: () => clearTimeout(timer), forced: () => forced };
}

/** What a caller other than the CLI may pass in: the bench's own after-work (bench/serve.mjs). */
export interface ServeOptions {
  afterWork?: AfterWork;
}

/** The process: config → db → migrate → demo store → listen, and a graceful stop on SIGTERM/SIGINT. */
export async function serve(config: Config, { afterWork }: ServeOptions = {}): Promise<void> {
  // Traces only when OTEL_EXPORTER_OTLP_ENDPOINT is set (src/tracing): the database then shows it every statement.
  const tracing = await startTracing();
  const database = await openMigratedDatabase(config, tracing?.observeStatement);
  const app = await buildApp({ config, database, tracer: tracing?.tracer, afterWork });
  if (database.engine === 'pglite' && config.replicaUrls.length)
    app.log.warn('STOREFRONT_REPLICA_URLS is ignored by the embedded engine: replicas are streaming replicas of DATABASE_URL');
  if (database.engine === 'pglite' && config.demo) {
    const file = await ensureDemoStore(database.db, config.dataDir);
    if (file) app.log.info({ credentials: file }, `demo store "demo" created; its admin credentials are in ${file}`);
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const overdue = forceCloseAfter(app, config.shutdownTimeoutMs);
    let code = 0;
    for (const [what, close] of [
      ['server', () => app.close()],
      ['database', () => database.close()],
      ['tracing', async () => tracing?.shutdown()],
    ] as const) {
      try {
        await close();
      } catch (error) {
        app.log.error({ err: error }, `shutting down: closing the ${what} failed`);
        code = 1;
      }
    }
    overdue.cancel();
    process.exit(overdue.forced() ? 1 : code);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  let address: string;
  try {
    address = await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await database.close();
    await tracing?.shutdown();
    throw error;
  }
  // The bound address, not the configured one: with PORT=0 the system picks the port.
  app.log.info({ engine: database.engine, url: `${address}/api/v1` }, 'storefront listening');
}
