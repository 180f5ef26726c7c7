import { type Database, openDatabase } from './database.js';
import { migrate } from './migrate.js';
import type { StatementObserver } from './statements/observed.js';

/** What of the configuration (src/config.ts) opening the engine reads: db/ imports nothing above it. */
export interface EngineConfig {
  databaseUrl: string | null;
  dataDir: string;
  dbPoolSize: number;
  /** STOREFRONT_REPLICA_URLS (PostgreSQL only) */
  replicaUrls?: string[];
  replicaMaxLagMs?: number;
}

/** Opens the configured engine and brings its schema up to date: what every entry point does first. */
export async function openMigratedDatabase(config: EngineConfig, observeStatement?: StatementObserver): Promise<Database> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.dbPoolSize,
    replicaUrls: config.replicaUrls,
    replicaMaxLagMs: config.replicaMaxLagMs,
    observeStatement,
  });
  try {
    await migrate(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
