import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { rateLimited } from '../errors.js';
import type { App, AppContext } from '../http/index.js';
import { createStoreShares, StringEnum, Timestamp, takeStoreSlot } from '../shared/index.js';
import { CSV, CSV_EXPORT_FORMATS, csvBody, csvExportOf } from './csv.js';
import { countRecords } from './exports.sql.js';
import { type ExportReader, openChunkReader, openSnapshotReader } from './snapshot.js';
import { EXPORT_SOURCES, type ExportSource } from './sources.js';
import { type ExportPlan, exportStream } from './stream.js';

const tags = ['Exports'];
const NDJSON = 'application/x-ndjson';

const ExportQuery = Type.Object({
  updatedSince: Type.Optional({ ...Timestamp, description: 'only records with updatedAt >= this date-time' }),
});

/** products, customers and orders also stream as another platform's CSV (src/exports/csv.ts). */
const FormatQuery = Type.Object({
  ...ExportQuery.properties,
  format: Type.Optional(
    StringEnum(['ndjson', ...CSV_EXPORT_FORMATS], {
      description: 'ndjson (default), or shopify: text/csv in the layout Shopify imports (docs/exports.md)',
    }),
  ),
});

/** Open exports per store at once, in every process together (src/shared/store-slots.ts); beyond: 429. */
export const EXPORTS_PER_STORE = 4;
const RETRY_AFTER_SECONDS = 5;

/**
 * A process's export capacity: on PostgreSQL each running export holds a pool connection for its whole
 * duration, so at most half the pool exports at once and exports never starve the rest of the API; on the
 * embedded engine every export's chunks take turns on its one session, so the same number holds there. It is
 * shared among stores (src/shared/store-shares.ts): no two stores can take all of it. Beyond: 429.
 */
function exportCapacity(ctx: AppContext, open: () => Promise<ExportReader>) {
  const shares = createStoreShares(Math.max(1, Math.floor(ctx.config.dbPoolSize / 2)));
  return async (storeId: string): Promise<ExportReader> => {
    const giveBack = shares.take(storeId);
    if (!giveBack) throw rateLimited(RETRY_AFTER_SECONDS);
    try {
      const reader = await open();
      return { ...reader, close: () => reader.close().finally(giveBack) };
    } catch (error) {
      giveBack();
      throw error;
    }
  };
}

function describe(source: ExportSource) {
  const csv = csvExportOf(source.name) !== undefined;
  const ndjson = { [NDJSON]: { schema: source.schema } };
  const rows = Type.String({ description: `CSV (RFC 4180): a header row, then the rows of each ${source.name} record` });
  return {
    tags,
    operationId: `export${source.name[0].toUpperCase()}${source.name.slice(1)}`,
    summary: `Export ${source.name} as NDJSON${csv ? " or a platform's CSV" : ''}`,
    description:
      `Every ${source.name} record of the store, one per line exactly as its GET returns it, in id order, ` +
      'streamed from one snapshot (PostgreSQL). `X-Total-Count` is the number of records that follow' +
      (csv ? '. With `format=shopify`: `text/csv` in the layout Shopify imports (its rows per record are in docs/exports.md).' : '.'),
    querystring: csv ? FormatQuery : ExportQuery,
    response: {
      200: {
        description: csv
          ? `NDJSON: one ${source.name} record per line; or CSV with format=shopify`
          : `NDJSON: one ${source.name} record per line`,
        content: csv ? { ...ndjson, [CSV]: { schema: rows } } : ndjson,
      },
    },
  };
}

/**
 * NDJSON: a line per record, its stored document where the resource keeps them (the bytes GET sends), else
 * the record as GET's response serializer writes it.
 */
function ndjsonBody(source: ExportSource, reply: FastifyReply): Pick<ExportPlan, 'text'> {
  const { texts, read } = source;
  if (texts) return { text: async (db, storeId, ids) => (await texts(db, storeId, ids)).map((text) => `${text}\n`).join('') };
  const serialize = reply.compileSerializationSchema(source.schema, '200') as (record: object) => string;
  return { text: async (db, storeId, ids) => (await read(db, storeId, ids)).map((record) => `${serialize(record)}\n`).join('') };
}

/**
 * GET /exports/{resource}: the resource's read scope; the body is streamed (stream.ts). Each export holds one
 * of its store's slots until it ends, however it ends (done, client gone, reader stalled past the socket
 * timeout): one store's exports never take every snapshot slot from the others.
 */
export async function registerExportRoutes(app: App, ctx: AppContext, engine: 'pglite' | 'postgres'): Promise<void> {
  const openReader = exportCapacity(ctx, engine === 'postgres' ? () => openSnapshotReader(ctx.db) : async () => openChunkReader(ctx.db));
  for (const source of EXPORT_SOURCES) {
    app.get(`/exports/${source.name}`, { config: { scope: source.scope }, schema: describe(source) }, async (request, reply) => {
      const { storeId } = request.auth;
      const updatedSince = request.query.updatedSince ? new Date(request.query.updatedSince) : null;
      const format = (request.query as { format?: string }).format;
      const csv = format && format !== 'ndjson' ? csvExportOf(source.name, format as 'shopify') : undefined;
      const slot = await takeStoreSlot(ctx.db, storeId, 'export', EXPORTS_PER_STORE);
      if (!slot) throw rateLimited(RETRY_AFTER_SECONDS);
      // however the connection ends (even before the body starts), the slot is freed
      reply.raw.once('close', () => void slot.release());
      const reader = await openReader(storeId).catch(async (error) => {
        await slot.release();
        throw error;
      });
      try {
        // the count is the snapshot's first statement: on PostgreSQL it fixes the snapshot the lines come from
        const total = await reader.read((db) => countRecords(db, source.table, storeId, updatedSince));
        const body = csv ? await csvBody(csv, reader, storeId) : ndjsonBody(source, reply);
        reply
          .type(csv ? `${CSV}; charset=utf-8` : NDJSON)
          .header('X-Total-Count', String(total))
          .header('X-Export-Consistency', reader.consistency);
        if (csv) reply.header('Content-Disposition', `attachment; filename="${format}-${source.name}.csv"`);
        const stream = exportStream({
          ...body,
          table: source.table,
          chunk: source.chunk,
          storeId,
          updatedSince,
          reader,
          stallMs: ctx.config.socketTimeoutMs,
        });
        stream.once('close', () => void slot.release());
        // however the connection ends (even before the body starts), an unfinished export ends with it
        reply.raw.once('close', () => {
          if (!stream.readableEnded) stream.destroy();
        });
        return reply.send(stream);
      } catch (error) {
        await reader.close();
        await slot.release();
        throw error;
      }
    });
  }
}
