import { Readable } from 'node:stream';
import { blobSize, putBlob, readBlob } from '../blobs/index.js';
import type { Db } from '../db/index.js';
import type { ByteRange, MediaFile, MediaObject, MediaStore } from '../shared/index.js';
import { MEDIA_KEY } from './media.js';

/** The blob key of a media key: media share the blob tables with other users of them. */
export const mediaBlobKey = (key: string) => `media/${key}`;

/**
 * Media in the database (src/blobs): every process on every machine serves what any one of them
 * stored. A file is streamed out a chunk at a time, never read whole.
 */
export function createDbMediaStore(db: Db, publicUrl: string): MediaStore {
  async function put({ key, bytes }: MediaObject): Promise<void> {
    if (!MEDIA_KEY.test(key)) throw new Error(`invalid media key ${key}`);
    await putBlob(db, mediaBlobKey(key), bytes);
  }

  async function open(key: string): Promise<MediaFile | null> {
    if (!MEDIA_KEY.test(key)) return null;
    const size = await blobSize(db, mediaBlobKey(key));
    if (size === null) return null;
    return {
      size,
      read: (range) =>
        Readable.from(range ? bytesOf(readBlob(db, mediaBlobKey(key), range.start), range) : readBlob(db, mediaBlobKey(key))),
    };
  }

  return { urlOf: (key) => `${publicUrl}/media/${key}`, put, open };
}

/** The chunks read from `range.start` on, cut at `range.end`: the rest of the blob is never read. */
async function* bytesOf(chunks: AsyncGenerator<Buffer>, range: ByteRange): AsyncGenerator<Buffer> {
  let left = range.end - range.start + 1;
  for await (const chunk of chunks) {
    if (chunk.length >= left) {
      yield chunk.subarray(0, left);
      return;
    }
    left -= chunk.length;
    yield chunk;
  }
}
