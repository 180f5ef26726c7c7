import type { FastifyRequest } from 'fastify';
import { AppError, invalidField, rateLimited } from '../errors.js';
import type { App, AppContext } from '../http/index.js';
import { guardRequestLine, handlingOf, sendWrite } from '../http/index.js';
import { insertJob, JobEnvelope, toJobOutput } from '../jobs/index.js';
import { CSV_FORMATS, type CsvFormat, type CsvResource, csvResources } from '../platforms/index.js';
import { newId, type StoreSlot, scopeResourceOf, takeStoreSlot, validatorCompiler } from '../shared/index.js';
import { csvInspector } from './csv.js';
import { charsetOf } from './csv-encoding.js';
import { registerFailedRowsRoute } from './failed-rows.routes.js';
import { IMPORT_RESOURCES } from './handlers.js';
import type { ImportHandlers } from './import-job.js';
import { ImportQuery, NdjsonBody } from './imports.schema.js';
import { parseMarketCurrencies } from './market-prices.js';
import { tooLarge, UploadedFile, type UploadStore } from './upload.js';

const NDJSON = 'application/x-ndjson';
const CSV = 'text/csv';
const unsupported = () => new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', `The body must be ${NDJSON} or ${CSV}`);

/** Bodies being received per store at once (every process counts: src/shared/store-slots.ts); beyond: 429. */
export const UPLOADS_PER_STORE = 2;
const UPLOAD_RETRY_AFTER_SECONDS = 5;

const resourceOf = (request: FastifyRequest) => (request.query as { resource?: unknown }).resource;
const marketCurrenciesOf = (request: FastifyRequest) => (request.query as { marketCurrencies?: string }).marketCurrencies;
const formatOf = (request: FastifyRequest) => (request.query as { format?: unknown }).format;
const isFormat = (value: unknown): value is CsvFormat => (CSV_FORMATS as readonly unknown[]).includes(value);
const isCsv = (request: FastifyRequest) => /^text\/csv\s*(;|$)/i.test(request.headers['content-type'] ?? '');
const isNdjson = (request: FastifyRequest) => /^application\/x-ndjson\s*(;|$)/i.test(request.headers['content-type'] ?? '');
const isResource = (value: unknown): value is string => (IMPORT_RESOURCES as readonly unknown[]).includes(value);

/**
 * POST /imports?resource=…: the NDJSON body is streamed to the upload store (src/imports/upload.ts; this route's own
 * body parser; every other content type is a 415), then one transaction creates the job that will apply
 * it (src/imports/README.md). Registered in a scope of its own so no other route takes NDJSON.
 */
export async function registerImportRoutes(api: App, ctx: AppContext, handlers: ImportHandlers, uploads: UploadStore): Promise<void> {
  await api.register(async (scope: App) => {
    const { importMaxBytes } = ctx.config;
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(NDJSON, async (request: FastifyRequest, payload: NodeJS.ReadableStream) => {
      if (Number(request.headers['content-length'] ?? 0) > importMaxBytes) throw tooLarge(importMaxBytes);
      return uploads.receive(payload as never, importMaxBytes, request.auth.storeId);
    });
    // A CSV file is read as it arrives (src/imports/csv.ts): its header row must be a layout of the resource.
    scope.addContentTypeParser(CSV, async (request: FastifyRequest, payload: NodeJS.ReadableStream) => {
      if (Number(request.headers['content-length'] ?? 0) > importMaxBytes) throw tooLarge(importMaxBytes);
      const format = formatOf(request);
      const charset = charsetOf(request.headers['content-type']);
      const inspector = csvInspector(String(resourceOf(request)), isFormat(format) ? format : undefined, ctx.config.bodyLimit, charset);
      return uploads.receive(payload as never, importMaxBytes, request.auth.storeId, inspector);
    });
    scope.addContentTypeParser('*', async () => {
      throw unsupported();
    });
    // The whole request is checked before a byte of its body is read (docs/imports.md): a body of up to
    // STOREFRONT_IMPORT_MAX_BYTES must not be stored to be refused. Its query (unknown names and bad values, as
    // the API refuses them after parsing) and its content type first; then what the query asks for: a resource
    // nobody imports names no scope, so authentication let it through and it is refused here.
    scope.addHook('preParsing', async (request) => {
      guardRequestLine(request);
      parseMarketCurrencies(marketCurrenciesOf(request));
      if (!isCsv(request) && !isNdjson(request)) throw unsupported();
      const resource = resourceOf(request) as string;
      if (!handlers[resource as keyof ImportHandlers]) throw invalidField('resource', `imports of ${resource} are not available`, 'query');
      if (!isCsv(request)) return;
      // a charset the import cannot read: 415 before the body is read
      charsetOf(request.headers['content-type']);
      if (!csvResources().includes(resource as CsvResource))
        throw invalidField('resource', `CSV imports of ${resource} are not available`, 'query');
    });
    // After the checks above (a request they refuse takes no slot), before any byte of the body is read.
    scope.addHook('preParsing', async (request) => holdUploadSlot(ctx, request));
    scope.addHook('onResponse', async (request) => uploadSlots.get(request)?.release());
    scope.addHook('onRequestAbort', async (request) => uploadSlots.get(request)?.release());
    // Whatever refused the request after its body was stored (validation, a replay, an error): no file is kept.
    scope.addHook('onResponse', async (request) => {
      const upload = request.body;
      if (upload instanceof UploadedFile && !upload.adopted) await upload.remove();
    });
    // The job's URL, on the first answer and on a replay alike (a replay re-sends the recorded body only).
    scope.addHook('onSend', async (_request, reply, payload) => {
      if (reply.statusCode !== 202 || typeof payload !== 'string') return payload;
      const id = (JSON.parse(payload) as { data?: { id?: string } }).data?.id;
      if (id) reply.header('Location', `/api/v1/jobs/${id}`);
      return payload;
    });
    registerImportRoute(scope, ctx);
  });
  registerFailedRowsRoute(api, ctx);
}

const uploadSlots = new WeakMap<FastifyRequest, StoreSlot>();

/**
 * One of the store's upload slots, held while its body is received (freed once the request is done, or
 * the client is gone); none free: 429 before a byte of the body is read, for this store only.
 */
async function holdUploadSlot(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const slot = await takeStoreSlot(ctx.db, request.auth.storeId, 'upload', UPLOADS_PER_STORE);
  if (!slot) throw rateLimited(UPLOAD_RETRY_AFTER_SECONDS);
  uploadSlots.set(request, slot);
  request.raw.once('close', () => void slot.release());
}

function registerImportRoute(scope: App, ctx: AppContext): void {
  scope.post(
    '/imports',
    {
      bodyLimit: ctx.config.importMaxBytes,
      config: {
        // an import needs the write scope of its resource (products:write to import products or inventory)
        scope: (request) => (isResource(resourceOf(request)) ? `${scopeResourceOf(resourceOf(request) as string)}:write` : null),
        scopeNote: 'the write scope of the resource imported (`products:write` for `resource=products` and `resource=inventory`)',
        event: false,
      },
      // The body is checked by its parser (a stored file), not by Ajv; the schema only documents it.
      validatorCompiler: (route) => (route.httpPart === 'body' ? () => true : validatorCompiler(route)),
      schema: {
        tags: ['Imports'],
        summary: 'Import NDJSON (one record per line) or a platform CSV, upserted by natural key, in a background job',
        querystring: ImportQuery,
        body: NdjsonBody,
        response: { 202: JobEnvelope },
      },
    },
    async (request, reply) => {
      const upload = request.body;
      if (!(upload instanceof UploadedFile)) throw unsupported();
      const sent = await sendWrite(
        ctx,
        request,
        reply,
        async (trx, storeId) => {
          const row = await insertJob(trx, {
            storeId,
            id: newId(),
            type: 'import',
            resource: request.query.resource,
            // the upload's Prefer: handling applies to every line of the job
            params: {
              file: upload.name,
              handling: handlingOf(request),
              ...(upload.csv ? { csv: upload.csv } : {}),
              ...(request.query.dryRun === true ? { dryRun: true } : {}),
              ...(request.query.marketCurrencies ? { marketCurrencies: parseMarketCurrencies(request.query.marketCurrencies) } : {}),
              // the job's batch spans carry it (src/tracing): the request that started the work
              requestId: request.id,
            },
            total: upload.lines,
          });
          return toJobOutput(row);
        },
        202,
      );
      if (sent) upload.adopted = true;
      return sent;
    },
  );
}
