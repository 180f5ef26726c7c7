/**
 * Writes the service's OpenAPI document (what `GET /api/v1/openapi.json` serves) to openapi.json, for
 * generating clients without a running server; `--check` fails instead when the committed file differs.
 * The app is built on a stand-in database: registering routes reads none, and the app never serves.
 */
import { randomBytes } from 'node:crypto';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { Database } from '../src/db/index.js';
import { writeOrCheck } from './generated-file.js';

export const DOCUMENT_FILE = new URL('../openapi.json', import.meta.url);

const idleListener = { live: () => true, backendPid: () => null, close: async () => undefined };

/** Only what building the app touches; any query would fail loudly (db is absent). */
const standInDatabase = {
  db: undefined,
  engine: 'pglite',
  stats: undefined,
  ping: async () => undefined,
  listen: () => idleListener,
  close: async () => undefined,
} as unknown as Database;

export async function generateDocument(): Promise<string> {
  const config = loadConfig({ STOREFRONT_JWT_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent', STOREFRONT_DEMO: 'false' });
  const app = await buildApp({ config: { ...config, webhookWorker: false }, database: standInDatabase });
  try {
    await app.ready();
    return `${JSON.stringify(app.swagger(), null, 2)}\n`;
  } finally {
    await app.close();
  }
}

async function main(check: boolean): Promise<number> {
  return writeOrCheck(
    DOCUMENT_FILE,
    await generateDocument(),
    check,
    'openapi.json is not the document the routes generate: run `npm run openapi` and commit it',
  );
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(await main(process.argv.includes('--check')));
