import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Database } from '../db/index.js';
import type { MediaStore } from '../shared/index.js';
import { createDbMediaStore } from './db-store.js';
import { createFsMediaStore } from './fs-store.js';

/** Where media go, decided once: a directory the operator names, else where every process can read them. */
export function mediaBackendOf(config: Config, engine: Database['engine']): { kind: 'dir'; dir: string } | { kind: 'database' } {
  if (config.mediaDir) return { kind: 'dir', dir: config.mediaDir };
  // On PostgreSQL any number of processes on any number of machines serve the API: media live in the database.
  if (engine === 'postgres') return { kind: 'database' };
  // The embedded engine is one process: its data dir is the one place.
  return { kind: 'dir', dir: join(config.dataDir, 'media') };
}

/** The media store of this deployment (README, STOREFRONT_MEDIA_DIR). */
export function createMediaStore(config: Config, database: Pick<Database, 'db' | 'engine'>): MediaStore {
  const backend = mediaBackendOf(config, database.engine);
  return backend.kind === 'database'
    ? createDbMediaStore(database.db, config.publicUrl)
    : createFsMediaStore(backend.dir, config.publicUrl);
}
