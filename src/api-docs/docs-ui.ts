import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound, sendError } from '../errors.js';
import type { App } from '../http/index.js';
import { loadScalarBundle } from './docs-bundle.js';
import { pageDocument, readDocsFiles, SCALAR_CONFIGURATION } from './docs-page.js';

/**
 * `GET /docs`: the user guide and the API reference in one page, rendered in the browser by Scalar
 * (docs/decisions.md, "The docs page"). Everything the page loads comes from here: the page, Scalar's
 * bundle, the page's document and the guide's neighbours (docs/*.md). Nothing is loaded or held until the
 * first visit: a server nobody browses never carries the 3.5 MB bundle.
 */

interface Asset {
  type: string;
  body: Buffer;
  gzip: Buffer;
  cacheControl: string;
}

interface DocsAssets {
  page: Asset;
  document: Asset;
  bundle: Asset;
  bundleFile: string;
  pages: Map<string, string>;
}

const gzipped = promisify(gzip);
const REVALIDATE = 'no-cache';
// The bundle's URL names its content hash: a new bundle is a new URL.
const IMMUTABLE = 'public, max-age=31536000, immutable';

async function asset(type: string, body: Buffer, cacheControl: string, compressed?: Buffer): Promise<Asset> {
  return { type, body, gzip: compressed ?? (await gzipped(body)), cacheControl };
}

/** The page: Scalar's bundle and its configuration, the document read from ./json (the page lives at /docs/). */
function pageHtml(bundleFile: string): string {
  const { pageTitle, ...configuration } = SCALAR_CONFIGURATION;
  // `<` escaped, so no string in the configuration can close the script element.
  const config = JSON.stringify({ ...configuration, url: './json' }).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${pageTitle}</title>
  </head>
  <body>
    <div id="app"></div>
    <script src="js/${bundleFile}"></script>
    <script>Scalar.createApiReference('#app', ${config})</script>
  </body>
</html>
`;
}

async function loadAssets(app: App): Promise<DocsAssets> {
  // The guide's Markdown renderer (marked, ~0.3 MB of a server's live heap) loads with the first visit too (issue 42).
  const { renderDocPages } = await import('./docs-pages.js');
  const bundle = await loadScalarBundle();
  const files = readDocsFiles();
  const bundleFile = `scalar-${bundle.version}.js`;
  const document = JSON.stringify(pageDocument(app.swagger() as unknown as Record<string, unknown>, files.guide));
  return {
    page: await asset('text/html; charset=utf-8', Buffer.from(pageHtml(bundleFile)), REVALIDATE),
    document: await asset('application/json; charset=utf-8', Buffer.from(document), REVALIDATE),
    bundle: await asset('application/javascript; charset=utf-8', bundle.js, IMMUTABLE, bundle.gzip),
    bundleFile,
    pages: renderDocPages(files.pages),
  };
}

function send(request: FastifyRequest, reply: FastifyReply, { type, body, gzip, cacheControl }: Asset): FastifyReply {
  reply.type(type).header('cache-control', cacheControl).header('vary', 'accept-encoding');
  const acceptsGzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
  return acceptsGzip ? reply.header('content-encoding', 'gzip').send(gzip) : reply.send(body);
}

export function registerDocsUi(app: App): void {
  let assets: Promise<DocsAssets> | null = null;
  const loaded = () => {
    assets ??= loadAssets(app).catch((error) => {
      assets = null; // the next visit tries again
      throw error;
    });
    return assets;
  };
  const options = { config: { public: true }, schema: { hide: true } };
  // The page's relative URLs (./json, js/…) need the trailing slash; the router treats both forms alike.
  app.get('/docs', options, async (request, reply) =>
    request.url.split('?')[0].endsWith('/') ? send(request, reply, (await loaded()).page) : reply.redirect('/docs/', 301),
  );
  app.get('/docs/json', options, async (request, reply) => send(request, reply, (await loaded()).document));
  app.get<{ Params: { file: string } }>('/docs/js/:file', options, async (request, reply) => {
    const docs = await loaded();
    if (request.params.file !== docs.bundleFile) return sendError(reply, notFound('Route'));
    return send(request, reply, docs.bundle);
  });
  app.get<{ Params: { name: string } }>('/docs/pages/:name', options, async (request, reply) => {
    const page = (await loaded()).pages.get(request.params.name);
    if (page === undefined) return sendError(reply, notFound('Route'));
    return reply.type('text/html; charset=utf-8').header('cache-control', REVALIDATE).send(page);
  });
}
