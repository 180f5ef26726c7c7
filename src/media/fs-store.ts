import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { MediaFile, MediaObject, MediaStore } from '../shared/index.js';
import { MEDIA_KEY } from './media.js';

/**
 * Media on the local filesystem: `<root>/<first two hex digits>/<sha256>.<ext>`. The two-digit
 * shard keeps directories small. A write goes to a temp file in the same directory, is flushed,
 * then renamed into place, so a reader never sees a half-written file and a crash leaves at most
 * a `*.tmp` file that no media name can address.
 */
export function createFsMediaStore(root: string, publicUrl: string): MediaStore {
  const pathOf = (key: string) => join(root, key.slice(0, 2), key);

  async function exists(path: string): Promise<boolean> {
    return stat(path).then(
      () => true,
      () => false,
    );
  }

  async function put({ key, bytes }: MediaObject): Promise<void> {
    if (!MEDIA_KEY.test(key)) throw new Error(`invalid media key ${key}`);
    const target = pathOf(key);
    // Content-addressed: an existing file already holds exactly these bytes.
    if (await exists(target)) return;
    await mkdir(join(root, key.slice(0, 2)), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      const handle = await open(temp, 'wx', 0o644);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, target);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  async function openFile(key: string): Promise<MediaFile | null> {
    if (!MEDIA_KEY.test(key)) return null;
    const path = pathOf(key);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return null;
    return { size: info.size, read: (range) => createReadStream(path, range) };
  }

  return { urlOf: (key) => `${publicUrl}/media/${key}`, put, open: openFile };
}
