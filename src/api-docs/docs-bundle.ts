import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

/**
 * Scalar's browser bundle, served by us (never from a CDN). @scalar/fastify-api-reference ships it as a file
 * next to its module (`dist/js/standalone.js`, which its package `exports` does not name, so it is found from
 * the module's own path). Importing the plugin to serve it would cost the process its OpenAPI parser for good;
 * reading the file costs a few MB, off the JS heap: the bundle and its gzip. `docs-bundle.unit.test.ts`
 * checks the result against what the plugin itself serves, so an upgrade that moves the file fails the
 * tests, not the page.
 */

export interface ScalarBundle {
  js: Buffer;
  gzip: Buffer;
  /** a short content hash, for an immutable URL */
  version: string;
}

const gzipped = promisify(gzip);

/** The bundle's path: `js/standalone.js` beside the plugin's entry module. */
export function scalarBundlePath(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@scalar/fastify-api-reference')), 'js', 'standalone.js');
}

export async function loadScalarBundle(): Promise<ScalarBundle> {
  const js = await readFile(scalarBundlePath()).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`@scalar/fastify-api-reference: its bundled standalone.js was not found (${error.code})`);
  });
  return { js, gzip: await gzipped(js), version: createHash('sha256').update(js).digest('hex').slice(0, 12) };
}
