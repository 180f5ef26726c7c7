import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { App, AppContext } from '../http/index.js';
import { IdParams } from '../shared/index.js';
import { failedRows } from './failed-rows.js';

const rows = Type.String({ description: "the file's header row and an `Error` column, then the failed lines' records as they were" });
const lines = Type.String({ description: 'the failed lines, unchanged' });

/** GET /jobs/{id}/failed-rows: an import's failed lines as the file had them (src/imports/failed-rows.ts). */
export function registerFailedRowsRoute(api: App, ctx: AppContext): void {
  api.get(
    '/jobs/:id/failed-rows',
    {
      config: {
        scope: () => null,
        scopeNote: "the job's resource's read scope (`products:read` for a products import)",
        reads: 'primary',
      },
      schema: {
        tags: ['Jobs'],
        summary: "An import's failed lines as they were in the file (CSV: with an Error column), to fix and import again",
        params: IdParams,
        response: {
          200: {
            description: 'a CSV import: text/csv; an NDJSON import: its failed lines',
            content: { 'text/csv': { schema: rows }, 'application/x-ndjson': { schema: lines } },
          },
        },
      },
    },
    async (request, reply) => {
      const { storeId, scopes } = request.auth;
      const file = await failedRows(ctx.db, storeId, scopes, request.params.id);
      reply.header('content-type', `${file.contentType}; charset=utf-8`);
      reply.header('content-disposition', `attachment; filename="${file.filename}"`);
      // a page of error rows at a time, never the whole file in memory
      return reply.send(Readable.from(file.chunks) as never);
    },
  );
}
