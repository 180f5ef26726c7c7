import { Readable } from 'node:stream';
import { type ChunkQuery, idsAfter } from './exports.sql.js';
import type { ExportReader } from './snapshot.js';
import type { ExportSource } from './sources.js';

export interface ExportPlan {
  source: ExportSource;
  storeId: string;
  updatedSince: Date | null;
  reader: ExportReader;
  /** a record as GET's response serializer writes it */
  serialize: (record: object) => string;
}

/** One chunk's NDJSON text, or null at the end: its ids by keyset, then the resource's batch read. */
async function nextChunk(plan: ExportPlan, query: ChunkQuery): Promise<{ text: string; last: string | null; full: boolean }> {
  const { source, storeId, reader, serialize } = plan;
  const { ids, records } = await reader.read(async (db) => {
    const ids = await idsAfter(db, source.table, storeId, query);
    return { ids, records: ids.length ? await source.read(db, storeId, ids) : [] };
  });
  let text = '';
  for (const record of records) text += `${serialize(record)}\n`;
  // a short chunk is the last one: no query to find out that nothing follows
  return { text, last: ids.at(-1) ?? null, full: ids.length === query.limit };
}

/**
 * The NDJSON body. highWaterMark 0: a chunk is read only when the one before has been handed to the socket
 * and the socket has drained (the pipe pauses the stream while the socket's buffer is full), so memory
 * holds one chunk whatever the client's speed. Destroying the stream (the client went away, an error)
 * closes the reader at once: the transaction ends and its connection returns to the pool.
 */
export function exportStream(plan: ExportPlan): Readable {
  const query: ChunkQuery = { after: null, updatedSince: plan.updatedSince, limit: plan.source.chunk };
  let more = true;
  const end = async (stream: Readable) => {
    await plan.reader.close();
    stream.push(null);
  };
  return new Readable({
    highWaterMark: 0,
    read() {
      if (!more) {
        end(this).catch((error: Error) => this.destroy(error));
        return;
      }
      nextChunk(plan, query).then(
        async (chunk) => {
          if (this.destroyed) return;
          query.after = chunk.last;
          more = chunk.full;
          if (chunk.text) this.push(chunk.text);
          else await end(this);
        },
        (error: Error) => this.destroy(error),
      );
    },
    destroy(error, callback) {
      plan.reader.close().then(
        () => callback(error),
        () => callback(error),
      );
    },
  });
}
