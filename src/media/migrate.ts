import { createHash } from 'node:crypto';
import { readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { MediaStore } from '../shared/index.js';
import { contentTypeOfKey, MEDIA_KEY } from './media.js';

export interface MediaMigration {
  /** files copied into the store and removed from the directory */
  moved: number;
  /** files whose bytes do not match their name (left where they are) */
  skipped: string[];
}

/** The media files under `dir` (`<two hex digits>/<sha256>.<ext>`, as the directory store writes them). */
async function* mediaFiles(dir: string): AsyncGenerator<{ key: string; path: string }> {
  const shards = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const shard of shards) {
    if (!shard.isDirectory() || !/^[0-9a-f]{2}$/.test(shard.name)) continue;
    for (const name of await readdir(join(dir, shard.name))) {
      if (MEDIA_KEY.test(name) && name.startsWith(shard.name)) yield { key: name, path: join(dir, shard.name, name) };
    }
  }
}

/**
 * Moves the media files of a directory (a data dir's `media/`) into `store`: each file is checked against
 * its content address, stored, then deleted. Run again after a failure, it carries on where it stopped
 * (storing is idempotent by key). One file in memory at a time (at most STOREFRONT_MEDIA_MAX_BYTES).
 */
export async function migrateMediaDir(dir: string, store: MediaStore): Promise<MediaMigration> {
  const result: MediaMigration = { moved: 0, skipped: [] };
  for await (const { key, path } of mediaFiles(dir)) {
    const bytes = await readFile(path);
    const contentType = contentTypeOfKey(key);
    if (!contentType || `${createHash('sha256').update(bytes).digest('hex')}` !== key.slice(0, 64)) {
      result.skipped.push(path);
      continue;
    }
    await store.put({ key, contentType, bytes });
    await unlink(path);
    result.moved++;
  }
  return result;
}
