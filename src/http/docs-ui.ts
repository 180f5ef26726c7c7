import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from './context.js';

/**
 * `GET /docs`: the OpenAPI document rendered by Swagger UI. The UI's plugin (with @fastify/static and
 * its assets) is loaded on the first visit, into a Fastify instance of its own that reads this app's
 * document; a server nobody browses never carries it (~9 MB of RSS, docs/performance.md).
 */

const ROUTE_PREFIX = '/docs';
// Hop-by-hop and length headers are the outer reply's own business.
const NOT_COPIED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date']);
const FORWARDED = ['accept', 'accept-encoding', 'if-none-match', 'if-modified-since', 'host'];

async function loadDocsUi(app: App): Promise<FastifyInstance> {
  const [{ default: Fastify }, { default: fp }, { default: swaggerUi }] = await Promise.all([
    import('fastify'),
    import('fastify-plugin'),
    import('@fastify/swagger-ui'),
  ]);
  const docs = Fastify({ logger: false });
  // Swagger UI needs @fastify/swagger registered; the document is the app's own.
  await docs.register(
    fp(
      async (instance: FastifyInstance) => {
        instance.decorate('swagger', ((options?: { yaml?: boolean }) => app.swagger(options as { yaml: true })) as App['swagger']);
      },
      { name: '@fastify/swagger' },
    ),
  );
  await docs.register(swaggerUi, { routePrefix: ROUTE_PREFIX });
  await docs.ready();
  return docs;
}

export function registerDocsUi(app: App): void {
  let docs: Promise<FastifyInstance> | null = null;
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    docs ??= loadDocsUi(app).catch((error) => {
      docs = null;
      throw error;
    });
    const headers = Object.fromEntries(FORWARDED.flatMap((name) => (request.headers[name] ? [[name, request.headers[name]]] : [])));
    const answer = await (await docs).inject({ method: request.method as 'GET' | 'HEAD', url: request.url, headers });
    for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !NOT_COPIED.has(name)) reply.header(name, value);
    return reply.code(answer.statusCode).send(answer.rawPayload);
  };
  const options = { config: { public: true }, schema: { hide: true } };
  app.get(ROUTE_PREFIX, options, handler);
  app.get(`${ROUTE_PREFIX}/*`, options, handler);
}
