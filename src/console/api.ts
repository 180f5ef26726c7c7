import type { Readable } from 'node:stream';
import { AppError, type ErrorCode, notFound } from '../errors.js';
import type { App } from '../http/index.js';
import type { AdminClaims, ConsoleSession } from './sessions.js';

/**
 * The console reads and writes through the API itself (an in-process request with a short-lived access
 * token of the session's admin): a screen shows exactly what the API answers (a product's JSON is
 * GET /products/{id}'s, byte for byte), with the API's scopes, tenancy, list machinery and rules, and no
 * second copy of any of them. Another store's id is the API's 404: "not found" here too.
 */

export interface ApiAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON, read field by field by the screens
  body: any;
  /** the response body as the API sent it */
  text: string;
}

export interface ConsoleApi {
  /** GET /api/v1<path>; a 4xx becomes the same error here (404 → "not found") */
  get(session: ConsoleSession, path: string, query?: Record<string, string | undefined>): Promise<ApiAnswer>;
  send(session: ConsoleSession, method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<ApiAnswer>;
  /** POST /api/v1<path> with a file's bytes as they arrive (an import: the API's own upload code and limits) */
  upload(session: ConsoleSession, path: string, contentType: string, file: Readable): Promise<ApiAnswer>;
  /** GET /api/v1<path> answered as a stream (an export, failed rows), with its content headers */
  download(session: ConsoleSession, path: string): Promise<{ headers: Record<string, string>; stream: Readable }>;
}

/** Mints an access token for an admin (src/auth's, handed in by app.ts). */
export type IssueToken = (claims: AdminClaims) => Promise<string>;

const queryString = (query: Record<string, string | undefined> = {}) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : '';
};

function failure(status: number, body: { error?: { code?: string; message?: string } } | null, what: string): AppError {
  if (status === 404) return notFound(what);
  const code = (body?.error?.code ?? 'INTERNAL_ERROR') as ErrorCode;
  return new AppError(status >= 400 && status < 600 ? status : 500, code, body?.error?.message ?? 'The API refused the request');
}

export function createConsoleApi(app: App, issueToken: IssueToken): ConsoleApi {
  async function call(session: ConsoleSession, method: string, url: string, body?: unknown): Promise<ApiAnswer> {
    const token = await issueToken({ storeId: session.storeId, adminId: session.adminId });
    const response = await app.inject({
      method: method as 'GET',
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    const text = response.body;
    const parsed = text ? JSON.parse(text) : null;
    if (response.statusCode >= 400) throw failure(response.statusCode, parsed, 'Record');
    return { status: response.statusCode, body: parsed, text };
  }
  const authorization = async (session: ConsoleSession) =>
    `Bearer ${await issueToken({ storeId: session.storeId, adminId: session.adminId })}`;
  return {
    get: (session, path, query) => call(session, 'GET', `${path}${queryString(query)}`),
    send: (session, method, path, body) => call(session, method, path, body),
    async upload(session, path, contentType, file) {
      const headers = { authorization: await authorization(session), 'content-type': contentType };
      const response = await app.inject({ method: 'POST', url: `/api/v1${path}`, headers, payload: file });
      const parsed = response.body ? JSON.parse(response.body) : null;
      if (response.statusCode >= 400) throw failure(response.statusCode, parsed, 'Record');
      return { status: response.statusCode, body: parsed, text: response.body };
    },
    async download(session, path) {
      const headers = { authorization: await authorization(session) };
      const response = await app.inject({ method: 'GET', url: `/api/v1${path}`, headers, payloadAsStream: true });
      const kept = ['content-type', 'content-disposition'].flatMap((name) => {
        const value = response.headers[name];
        return typeof value === 'string' ? [[name, value]] : [];
      });
      if (response.statusCode < 400) return { headers: Object.fromEntries(kept), stream: response.stream() };
      const chunks: Buffer[] = [];
      for await (const chunk of response.stream()) chunks.push(chunk as Buffer);
      throw failure(response.statusCode, JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'), 'Record');
    },
  };
}
