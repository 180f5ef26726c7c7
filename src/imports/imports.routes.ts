import type { FastifyRequest } from 'fastify';
import { AppError, invalidField } from '../errors.js';
import type { App, AppContext } from '../http/index.js';
import { sendWrite, validatorCompiler } from '../http/index.js';
import { insertJob, JobEnvelope, toJobOutput } from '../jobs/index.js';
import { newId } from '../shared/index.js';
import { IMPORT_RESOURCES } from './handlers.js';
import type { ImportHandlers } from './import-job.js';
import { ImportQuery, NdjsonBody } from './imports.schema.js';
import { importsDir, receiveUpload, tooLarge, UploadedFile } from './upload.js';

const NDJSON = 'application/x-ndjson';
const unsupported = () => new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', `The body must be ${NDJSON}`);

const resourceOf = (request: FastifyRequest) => (request.query as { resource?: unknown }).resource;
const isResource = (value: unknown): value is string => (IMPORT_RESOURCES as readonly unknown[]).includes(value);

/**
 * POST /imports?resource=…: the NDJSON body is streamed to a file under the data dir (this route's own
 * body parser; every other content type is a 415), then one transaction creates the job that will apply
 * it (src/imports/README.md). Registered in a scope of its own so no other route takes NDJSON.
 */
export async function registerImportRoutes(api: App, ctx: AppContext, handlers: ImportHandlers): Promise<void> {
  await api.register(async (scope: App) => {
    const { importMaxBytes, dataDir } = ctx.config;
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(NDJSON, async (request: FastifyRequest, payload: NodeJS.ReadableStream) => {
      if (Number(request.headers['content-length'] ?? 0) > importMaxBytes) throw tooLarge(importMaxBytes);
      return receiveUpload(payload as never, importsDir(dataDir), importMaxBytes);
    });
    scope.addContentTypeParser('*', async () => {
      throw unsupported();
    });
    // Refused before the body is read: a resource nobody imports would otherwise upload for nothing.
    scope.addHook('preParsing', async (request) => {
      const resource = resourceOf(request);
      if (isResource(resource) && !handlers[resource]) throw invalidField('resource', `imports of ${resource} are not available`, 'query');
    });
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
}

function registerImportRoute(scope: App, ctx: AppContext): void {
  scope.post(
    '/imports',
    {
      bodyLimit: ctx.config.importMaxBytes,
      config: {
        // an import needs the write scope of its resource (products:write to import products)
        scope: (request) => (isResource(resourceOf(request)) ? `${resourceOf(request)}:write` : null),
        scopeNote: 'the write scope of the resource imported (`products:write` for `resource=products`)',
        event: false,
      },
      // The body is checked by its parser (a stored file), not by Ajv; the schema only documents it.
      validatorCompiler: (route) => (route.httpPart === 'body' ? () => true : validatorCompiler(route)),
      schema: {
        tags: ['Imports'],
        summary: 'Import NDJSON: one record per line, upserted by its natural key, in a background job',
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
            params: { file: upload.name },
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
