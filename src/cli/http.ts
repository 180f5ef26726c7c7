import { createStorefrontClient } from '../client/index.js';
import { CliError } from './cli-error.js';

/**
 * The CLI's side of the HTTP API: base URL and key from the environment, one-line errors, 429 retried.
 * Requests go through the typed client's fetch (bearer auth, an Idempotency-Key on every write); the 429
 * waits are the CLI's own, because only the CLI can reopen the file of an upload to send it again.
 */

export interface Api {
  /** the server's API root, e.g. http://127.0.0.1:3000/api/v1 */
  base: string;
  request(method: string, path: string, init?: { body?: () => BodyInit; headers?: Record<string, string> }): Promise<Response>;
  /** the envelope's `data`; a `body` goes as JSON */
  json<T>(method: string, path: string, body?: unknown): Promise<T>;
}

/** The WHATWG fetch (a parameter named `fetch` cannot name its own type). */
type Fetch = typeof fetch;

const MAX_RATE_LIMIT_WAITS = 20;

/** `STOREFRONT_URL` (the server, with or without /api/v1) and `STOREFRONT_API_KEY` (an API key or an access token). */
export function apiFromEnv(env: NodeJS.ProcessEnv = process.env): Api {
  const base = apiRootFromEnv(env);
  const key = env.STOREFRONT_API_KEY;
  if (!key) throw new CliError('STOREFRONT_API_KEY is not set (an API key with the scope of the resource)', 2);
  return createApi(base, key);
}

/** The API root of `STOREFRONT_URL`: http://127.0.0.1:3000 → http://127.0.0.1:3000/api/v1. */
export function apiRootFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  const url = env.STOREFRONT_URL;
  if (!url) throw new CliError('STOREFRONT_URL is not set (the server, e.g. http://127.0.0.1:3000)', 2);
  let root: URL;
  try {
    root = new URL(url);
  } catch {
    throw new CliError(`STOREFRONT_URL is not a URL: ${url}`, 2);
  }
  return root.href.replace(/\/+$/, '').replace(/(\/api\/v1)?$/, '/api/v1');
}

/** Signs in as an admin (`POST /auth` with `{storeSlug, email, password}`): the API on the access token it gives. */
export async function apiSignedIn(base: string, credentials: unknown): Promise<Api> {
  const response = await send(fetch, `${base}/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (!response.ok) throw await httpError(response);
  const { data } = (await response.json()) as { data: { accessToken: string } };
  return createApi(base, data.accessToken);
}

function createApi(base: string, key: string): Api {
  const client = createStorefrontClient({ baseUrl: base, apiKey: key, retries: 0 });
  const request: Api['request'] = async (method, path, init = {}) => {
    // one key for every attempt of this call: a retried upload is the same import, replayed not repeated
    const headers = method === 'GET' ? { ...init.headers } : { 'idempotency-key': crypto.randomUUID(), ...init.headers };
    for (let waits = 0; ; waits++) {
      const response = await send(client.fetch, `${base}${path}`, {
        method,
        headers,
        ...(init.body ? { body: init.body(), duplex: 'half' } : {}),
      });
      if (response.status === 429 && waits < MAX_RATE_LIMIT_WAITS) {
        await response.body?.cancel();
        await sleep(retryAfterMs(response));
        continue;
      }
      if (!response.ok) throw await httpError(response);
      return response;
    }
  };
  return {
    base,
    request,
    json: async <T>(method: string, path: string, body?: unknown) => {
      const init = body === undefined ? {} : { body: () => JSON.stringify(body), headers: { 'content-type': 'application/json' } };
      return ((await (await request(method, path, init)).json()) as { data: T }).data;
    },
  };
}

async function send(fetch: Fetch, url: string, init: RequestInit & { duplex?: 'half' }): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code === 'ECONNREFUSED' ? 'connection refused' : (cause?.code ?? cause?.message ?? (error as Error).message);
    throw new CliError(`cannot reach ${new URL(url).origin}: ${why}`);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function retryAfterMs(response: Response): number {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 60) * 1000 : 1000;
}

/** `HTTP 401: <the envelope's message>` (and its first detail), whatever the body. */
async function httpError(response: Response): Promise<CliError> {
  const text = await response.text().catch(() => '');
  let message = response.statusText;
  try {
    const { error } = JSON.parse(text) as { error?: { message?: string; details?: { field?: string; message?: string }[] } };
    const detail = error?.details?.[0];
    if (error?.message) message = detail ? `${error.message}: ${detail.field} ${detail.message}` : error.message;
  } catch {
    // not the envelope: the status line says enough
  }
  return new CliError(`HTTP ${response.status}: ${message}`);
}
