import { readFile } from 'node:fs/promises';
import { CliError } from './cli-error.js';
import type { OptionValues } from './command-table.js';
import { apiRootFromEnv, apiSignedIn } from './http.js';

/**
 * `storefront api-keys request`: an API key from a running server, over HTTP (sign in with an admin's
 * credentials, then `POST /api-keys`). Unlike `api-keys create` it never opens the database, so it works
 * while the server holds the embedded engine's data dir (the migration guide's first step).
 */
export async function requestApiKey(values: OptionValues): Promise<unknown> {
  const credentials = await readCredentials(values.credentials as string);
  const api = await apiSignedIn(apiRootFromEnv(), credentials);
  const scopes = typeof values.scopes === 'string' && values.scopes !== '' ? values.scopes.split(',').map((scope) => scope.trim()) : ['*'];
  const response = await api.request('POST', '/api-keys', {
    body: () => JSON.stringify({ name: values.name, scopes }),
    headers: { 'content-type': 'application/json' },
  });
  return ((await response.json()) as { data: unknown }).data;
}

/** The credentials file (`data/demo-credentials.json`'s shape: `{storeSlug, email, password}`), or a usage error. */
async function readCredentials(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    if (['storeSlug', 'email', 'password'].every((field) => typeof parsed[field] === 'string')) return parsed;
  } catch {
    // reported below
  }
  throw new CliError(`${file} is not a JSON object with storeSlug, email and password (what POST /auth takes)`);
}
