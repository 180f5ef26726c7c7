import { buildApp } from './app.js';
import type { Config } from './config.js';
import { openMigratedDatabase } from './db/open-migrated.js';
import { ensureDemoStore } from './stores/index.js';

/** The process: config → db → migrate → demo store → listen, and a graceful stop on SIGTERM/SIGINT. */
export async function serve(config: Config): Promise<void> {
  const database = await openMigratedDatabase(config);
  const app = await buildApp({ config, database });
  if (database.engine === 'pglite' && config.demo) {
    const file = await ensureDemoStore(database.db, config.dataDir);
    if (file) app.log.info({ credentials: file }, `demo store "demo" created; its admin credentials are in ${file}`);
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await database.close();
    throw error;
  }
  app.log.info({ engine: database.engine, url: `http://${config.host}:${config.port}/api/v1` }, 'storefront listening');
}
