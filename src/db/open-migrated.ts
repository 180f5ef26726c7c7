import type { Config } from '../config.js';
import { type Database, openDatabase } from './database.js';
import { migrate } from './migrate.js';

/** Opens the configured engine and brings its schema up to date: what every entry point does first. */
export async function openMigratedDatabase(config: Config): Promise<Database> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.dbPoolSize });
  try {
    await migrate(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
