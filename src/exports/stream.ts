import { Readable } from 'node:stream';
import type { Db } from '../db/index.js';
import { type ChunkQuery, type ExportTable, idsAfter } from './exports.sql.js';
import type { ExportReader } from './snapshot.js';

/** The reader took nothing for `stallMs`: its export is cut (its snapshot and slot freed). */
export class ExportStalled extends Error {
  constructor(ms: number) {
    super(`the export's reader took nothing for ${ms} ms: closed`);
  }
}

export interface ExportPlan {
  table: ExportTable;
  /** records per chunk: what one round of reads holds in memory */
  chunk: number;
  storeId: string;
  updatedSince: Date | null;
  reader: ExportReader;
  /** the text of the records among `ids` (in id order), each record's lines ended by a line break */
  text: (db: Db, storeId: string, ids: string[]) => Promise<string>;
  /** written before the first record (a CSV layout's header row), even when no record follows */
  head?: string;
  /**
   * a reader that has not taken the last chunk handed to it after this long is stalled: the stream is
   * destroyed (and its response with it). Progress, not socket idleness: a client that reads a few bytes
   * every few seconds keeps its socket's idle timer alive for ever, and the snapshot open with it.
   */
  stallMs?: number;
}

/** One chunk's NDJSON text, or null at the end: its ids by keyset, then the resource's batch read. */
interface Chunk {
  text: string;
  /** the chunk's last id: the next chunk starts after it */
  last: string | null;
  /** as many records as asked for: there may be more */
  full: boolean;
}

async function nextChunk(plan: ExportPlan, query: ChunkQuery): Promise<Chunk> {
  const { table, storeId, reader } = plan;
  const { ids, text } = await reader.read(async (db) => {
    const ids = await idsAfter(db, table, storeId, query);
    return { ids, text: ids.length ? await plan.text(db, storeId, ids) : '' };
  });
  // a short chunk is the last one: no query to find out that nothing follows
  return { text, last: ids.at(-1) ?? null, full: ids.length === query.limit };
}

/**
 * The NDJSON body. highWaterMark 0: the stream hands a chunk over only when the socket has drained the one
 * before (the pipe pauses the stream while the socket's buffer is full). From one snapshot (PostgreSQL) the
 * next chunk is read while the socket sends the current one — the database read overlaps the network
 * write, and memory holds at most two chunks whatever the client's speed; read chunk by chunk (PGlite), a
 * chunk is read only when it is asked for, so it shows what was committed until then. Destroying the
 * stream (the client went away, an error, a stalled reader: `stallMs`) closes the reader at once: the
 * transaction ends and its connection returns to the pool.
 */
export function exportStream(plan: ExportPlan): Readable {
  let after: string | null = null;
  const read = () => nextChunk(plan, { after, updatedSince: plan.updatedSince, limit: plan.chunk });
  const prefetch = plan.reader.consistency === 'snapshot';
  // a prefetch that fails while nobody waits for it is reported by the read() that takes it
  const ahead = (chunk: Promise<Chunk>) => {
    chunk.catch(() => undefined);
    return chunk;
  };
  let next: Promise<Chunk> | null = prefetch ? ahead(read()) : null;
  let more = true;
  let head = plan.head ?? '';
  // armed when a chunk is handed over, disarmed when the reader asks for the next one
  let stall: NodeJS.Timeout | undefined;
  const waitForReader = (stream: Readable) => {
    if (plan.stallMs === undefined) return;
    stall = setTimeout(() => stream.destroy(new ExportStalled(plan.stallMs as number)), plan.stallMs);
    stall.unref();
  };
  const end = async (stream: Readable) => {
    clearTimeout(stall);
    await plan.reader.close();
    stream.push(null);
  };
  return new Readable({
    highWaterMark: 0,
    read() {
      clearTimeout(stall);
      if (!more) {
        end(this).catch((error: Error) => this.destroy(error));
        return;
      }
      const current = next ?? read();
      next = null;
      current.then(
        async (chunk) => {
          if (this.destroyed) return;
          after = chunk.last;
          more = chunk.full;
          if (more && prefetch) next = ahead(read());
          const text = head + chunk.text;
          head = '';
          if (text) {
            // armed first: a push may ask for the next chunk at once (a fast reader), which disarms it
            waitForReader(this);
            this.push(text);
          }
          if (!chunk.text) await end(this);
        },
        (error: Error) => this.destroy(error),
      );
    },
    destroy(error, callback) {
      clearTimeout(stall);
      plan.reader.close().then(
        () => callback(error),
        () => callback(error),
      );
    },
  });
}
