import type { Db } from '../db/index.js';
import { deleteBlobRow, finishBlob, insertBlob, insertChunk, selectBlobSize, selectChunk, selectFinishedBlobKeys } from './blobs.sql.js';

/**
 * Bytes in the database, in chunks of CHUNK_BYTES (the last one shorter), so that any process on any
 * machine reads what another one wrote, and nothing is ever held whole in memory: a write takes a stream
 * and stores each chunk as it fills, a read yields one chunk at a time from any byte.
 */
export const CHUNK_BYTES = 256 * 1024;

const asBuffer = (data: Uint8Array) => (Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));

/** Cuts a stream of buffers of any size into CHUNK_BYTES pieces (the last one shorter). */
async function* rechunk(source: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let length = 0;
  for await (const piece of source) {
    let from = 0;
    while (from < piece.length) {
      const take = Math.min(CHUNK_BYTES - length, piece.length - from);
      parts.push(piece.subarray(from, from + take));
      length += take;
      from += take;
      if (length === CHUNK_BYTES) {
        yield Buffer.concat(parts, length);
        parts = [];
        length = 0;
      }
    }
  }
  if (length > 0) yield Buffer.concat(parts, length);
}

async function writeChunks(db: Db, key: string, source: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<number> {
  let seq = 0;
  let size = 0;
  for await (const chunk of rechunk(source)) {
    await insertChunk(db, key, seq++, chunk);
    size += chunk.length;
  }
  await finishBlob(db, key, size);
  return size;
}

/**
 * Stores an immutable blob in one transaction; a key that exists already is left as it is (content
 * addresses: same key, same bytes). Two processes writing one key at once: the second waits for the
 * first's row, then finds it and writes nothing.
 */
export async function putBlob(db: Db, key: string, bytes: Buffer): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await insertBlob(trx, key))) return;
    await writeChunks(trx, key, [bytes]);
  });
}

/**
 * Streams `source` into a new blob chunk by chunk, each chunk its own statement (a slow upload holds no
 * transaction open): readable once the whole stream is stored. If the stream fails, what was written is
 * deleted; a process killed meanwhile leaves an unfinished blob for `deleteAbandonedBlobs`.
 */
export async function writeBlobStream(db: Db, key: string, source: AsyncIterable<Buffer>): Promise<number> {
  if (!(await insertBlob(db, key))) throw new Error(`blob ${key} exists already`);
  try {
    return await writeChunks(db, key, source);
  } catch (error) {
    await deleteBlobRow(db, key).catch(() => undefined);
    throw error;
  }
}

/** The size of a finished blob, or null (unknown, or still being written). */
export const blobSize = (db: Db, key: string) => selectBlobSize(db, key);

/** A finished blob's bytes from byte `start`, one chunk per query. */
export async function* readBlob(db: Db, key: string, start = 0): AsyncGenerator<Buffer> {
  let seq = Math.floor(start / CHUNK_BYTES);
  let skip = start % CHUNK_BYTES;
  for (;;) {
    const data = await selectChunk(db, key, seq++);
    if (!data) return;
    const chunk = asBuffer(data);
    if (skip > 0) {
      if (skip < chunk.length) yield chunk.subarray(skip);
      skip = 0;
    } else yield chunk;
  }
}

export const deleteBlob = (db: Db, key: string) => deleteBlobRow(db, key);

const PAGE = 500;

/** The keys under `prefix` of the blobs finished before `before` (a page at a time: none is held but a page). */
export async function* finishedBlobKeys(db: Db, prefix: string, before: Date): AsyncGenerator<string> {
  for (let after = ''; ; ) {
    const page = await selectFinishedBlobKeys(db, prefix, before, after, PAGE);
    yield* page;
    if (page.length < PAGE) return;
    after = page[page.length - 1];
  }
}
