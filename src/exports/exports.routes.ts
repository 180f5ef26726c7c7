import { Type } from '@sinclair/typebox';
import { rateLimited } from '../errors.js';
import type { App, AppContext } from '../http/index.js';
import { Timestamp } from '../shared/index.js';
import { countRecords } from './exports.sql.js';
import { type ExportReader, openChunkReader, openSnapshotReader } from './snapshot.js';
import { EXPORT_SOURCES, type ExportSource } from './sources.js';
import { exportStream } from './stream.js';

const tags = ['Exports'];
const NDJSON = 'application/x-ndjson';

const ExportQuery = Type.Object({
  updatedSince: Type.Optional({ ...Timestamp, description: 'only records with updatedAt >= this date-time' }),
});

/**
 * On PostgreSQL each running export holds a pool connection for its whole duration: at most half the pool
 * exports at once, so exports never starve the rest of the API (beyond that: 429 with Retry-After).
 */
function snapshotSlots(ctx: AppContext) {
  const max = Math.max(1, Math.floor(ctx.config.dbPoolSize / 2));
  let running = 0;
  return async (): Promise<ExportReader> => {
    if (running >= max) throw rateLimited(5);
    running++;
    let freed = false;
    const free = () => {
      if (!freed) running--;
      freed = true;
    };
    try {
      const reader = await openSnapshotReader(ctx.db);
      return { ...reader, close: () => reader.close().finally(free) };
    } catch (error) {
      free();
      throw error;
    }
  };
}

function describe(source: ExportSource) {
  return {
    tags,
    operationId: `export${source.name[0].toUpperCase()}${source.name.slice(1)}`,
    summary: `Export ${source.name} as NDJSON`,
    description:
      `Every ${source.name} record of the store, one per line exactly as its GET returns it, in id order, ` +
      'streamed from one snapshot (PostgreSQL). `X-Total-Count` is the number of lines that follow.',
    querystring: ExportQuery,
    response: {
      200: { description: `NDJSON: one ${source.name} record per line`, content: { [NDJSON]: { schema: source.schema } } },
    },
  };
}

/** GET /exports/{resource}: the resource's read scope; the body is streamed (stream.ts). */
export async function registerExportRoutes(app: App, ctx: AppContext, engine: 'pglite' | 'postgres'): Promise<void> {
  const openReader = engine === 'postgres' ? snapshotSlots(ctx) : async () => openChunkReader(ctx.db);
  for (const source of EXPORT_SOURCES) {
    app.get(`/exports/${source.name}`, { config: { scope: source.scope }, schema: describe(source) }, async (request, reply) => {
      const { storeId } = request.auth;
      const updatedSince = request.query.updatedSince ? new Date(request.query.updatedSince) : null;
      const reader = await openReader();
      try {
        // the count is the snapshot's first statement: on PostgreSQL it fixes the snapshot the lines come from
        const total = await reader.read((db) => countRecords(db, source.table, storeId, updatedSince));
        const serialize = reply.compileSerializationSchema(source.schema, '200') as (record: object) => string;
        reply.type(NDJSON).header('X-Total-Count', String(total)).header('X-Export-Consistency', reader.consistency);
        const stream = exportStream({ source, storeId, updatedSince, reader, serialize });
        // however the connection ends (even before the body starts), an unfinished export ends with it
        reply.raw.once('close', () => {
          if (!stream.readableEnded) stream.destroy();
        });
        return reply.send(stream);
      } catch (error) {
        await reader.close();
        throw error;
      }
    });
  }
}
