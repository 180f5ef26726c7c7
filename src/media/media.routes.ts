import type { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import parseRange from 'range-parser';
import { notFound } from '../errors.js';
import type { App, AppContext } from '../http/index.js';
import type { ByteRange, MediaType } from '../shared/index.js';
import { contentTypeOfKey } from './media.js';

const FileParams = Type.Object({ file: Type.String({ description: '<sha256>.<ext>, as in a media URL' }) });
/** Documentation only: a stream is sent as it is, never serialized. */
const FileBytes = Type.Unsafe<Readable>({
  type: 'string',
  format: 'binary',
  description: 'the file, with its Content-Type (image/* or application/pdf)',
});
const NotModified = Type.Unsafe<undefined>({ type: 'null', description: 'If-None-Match matched the ETag: no body' });
const FileTypes = ['image/*', 'application/pdf'];

/**
 * What every media answer carries: the browser must never take a file for another type (nosniff), a file
 * opened on its own runs nothing and loads nothing (a PDF can carry scripts: the CSP sandboxes it), and a
 * PDF is downloaded under its name rather than shown on our origin; images are shown where they are linked.
 */
function safetyHeaders(key: string, contentType: MediaType): Record<string, string> {
  return {
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Content-Disposition': `${contentType === 'application/pdf' ? 'attachment' : 'inline'}; filename="${key}"`,
  };
}

/**
 * The one range a request asks for (RFC 9110 §14, parsed by range-parser, as @fastify/static does), null to
 * send the whole file (no Range, another unit, several ranges, or an If-Range naming another version), or
 * 'unsatisfiable'. Overlapping ranges are combined; several distinct ones get the whole file (allowed: a
 * server may ignore Range), not a multipart answer.
 */
function rangeOf(request: FastifyRequest, size: number, etag: string): ByteRange | null | 'unsatisfiable' {
  const header = request.headers.range;
  if (!header) return null;
  const ifRange = request.headers['if-range'];
  if (ifRange !== undefined && ifRange !== etag) return null;
  const ranges = parseRange(size, header, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return null;
  return { start: ranges[0].start, end: ranges[0].end };
}

/** GET /media/… (public, outside /api/v1): stored product images and size charts. */
export async function registerMediaRoutes(app: App, { media }: AppContext): Promise<void> {
  app.get(
    '/media/:file',
    {
      config: { public: true, rateLimit: false },
      schema: {
        tags: ['Media'],
        summary: 'A stored media file (no auth; immutable)',
        description:
          'Byte ranges: one `Range: bytes=…` range gives 206 with `Content-Range`; a range starting past the end gives 416 ' +
          'with `Content-Range: bytes */<size>` and no body; several ranges get the whole file. A PDF is sent as an attachment.',
        params: FileParams,
        security: [],
        // The file's own type, not JSON (a stream is never serialized).
        response: {
          200: { description: FileBytes.description, content: Object.fromEntries(FileTypes.map((type) => [type, { schema: FileBytes }])) },
          206: {
            description: 'the one byte range the Range header asked for, with Content-Range',
            content: Object.fromEntries(FileTypes.map((type) => [type, { schema: FileBytes }])),
          },
          304: NotModified,
        },
      },
    },
    async (request, reply) => {
      const key = request.params.file;
      const contentType = contentTypeOfKey(key);
      const file = contentType ? await media.open(key) : null;
      if (!contentType || !file) throw notFound('Media');
      const etag = `"${key.slice(0, 64)}"`;
      reply
        .headers(safetyHeaders(key, contentType))
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('ETag', etag)
        .header('Accept-Ranges', 'bytes');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      const range = rangeOf(request, file.size, etag);
      // 416 has no body to describe, so the route's schema does not list it: the reply's type knows only those it lists
      if (range === 'unsatisfiable') return (reply as FastifyReply).status(416).header('Content-Range', `bytes */${file.size}`).send();
      reply.type(contentType);
      if (!range) return reply.header('Content-Length', file.size).send(file.read());
      return reply
        .status(206)
        .header('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`)
        .header('Content-Length', range.end - range.start + 1)
        .send(file.read(range));
    },
  );
}
