import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONSOLE_CSS } from './styles.js';

/**
 * What every console page loads: htmx from its npm package (read from node_modules at start, never from
 * another host) and the console's stylesheet. Each is served under a name holding its content hash, so
 * it is cached for a year and a new version is a new URL; gzipped once at start.
 */

interface Asset {
  file: string;
  type: string;
  body: Buffer;
  gzip: Buffer;
}

export interface ConsoleAssets {
  /** URL paths the layout links */
  scriptPath: string;
  stylePath: string;
  byFile: ReadonlyMap<string, Asset>;
}

export const ASSET_PREFIX = '/console/assets/';
const IMMUTABLE = 'public, max-age=31536000, immutable';

function asset(name: string, extension: string, type: string, body: Buffer): Asset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { file: `${name}-${hash}.${extension}`, type, body, gzip: gzipSync(body, { level: 9 }) };
}

export function loadConsoleAssets(): ConsoleAssets {
  const require = createRequire(import.meta.url);
  const script = asset('htmx', 'js', 'text/javascript; charset=utf-8', readFileSync(require.resolve('htmx.org/dist/htmx.min.js')));
  const style = asset('console', 'css', 'text/css; charset=utf-8', Buffer.from(CONSOLE_CSS));
  return {
    scriptPath: ASSET_PREFIX + script.file,
    stylePath: ASSET_PREFIX + style.file,
    byFile: new Map([script, style].map((entry) => [entry.file, entry])),
  };
}

/** GET /console/assets/:file — public (the sign-in page loads them too). */
export function serveAsset(assets: ConsoleAssets) {
  return async (request: FastifyRequest<{ Params: { file: string } }>, reply: FastifyReply) => {
    const found = assets.byFile.get(request.params.file);
    if (!found) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    reply.header('cache-control', IMMUTABLE).header('vary', 'Accept-Encoding').type(found.type);
    if (gzip) reply.header('content-encoding', 'gzip');
    return reply.send(gzip ? found.gzip : found.body);
  };
}
