import type { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { notFound } from '../errors.js';
import type { App, AppContext } from '../http/index.js';
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

/** GET /media/… (public, outside /api/v1): stored product images and size charts. */
export async function registerMediaRoutes(app: App, { media }: AppContext): Promise<void> {
  app.get(
    '/media/:file',
    {
      config: { public: true, rateLimit: false },
      schema: {
        tags: ['Media'],
        summary: 'A stored media file (no auth; immutable)',
        params: FileParams,
        security: [],
        // The file's own type, not JSON (a stream is never serialized).
        response: {
          200: { description: FileBytes.description, content: Object.fromEntries(FileTypes.map((type) => [type, { schema: FileBytes }])) },
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
      reply.header('Cache-Control', 'public, max-age=31536000, immutable').header('X-Content-Type-Options', 'nosniff').header('ETag', etag);
      if (request.headers['if-none-match'] === etag) {
        file.body.destroy();
        return reply.status(304).send();
      }
      return reply.type(contentType).header('Content-Length', file.size).send(file.body);
    },
  );
}
