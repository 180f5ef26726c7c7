import createClient, { type Client } from 'openapi-fetch';
import { StorefrontError } from './errors.js';
import { type EventBatch, type ListenOptions, listenToEvents } from './events.js';
import type { paths } from './schema.js';
import { type ConsistencyOptions, createTransport, type RetryOptions } from './transport.js';

export interface StorefrontClientOptions extends RetryOptions, ConsistencyOptions {
  /** the API's base URL, with its `/api/v1`: `http://127.0.0.1:3000/api/v1` */
  baseUrl: string;
  /** an API key (`sfk_…`) */
  apiKey?: string;
  /** an access token from `POST /auth`, or a function that returns a fresh one */
  token?: string | (() => string | Promise<string>);
  /** a fetch to use instead of the global one (a proxy, a test double) */
  fetch?: typeof fetch;
}

// The hand-written parts name no component of the document, only `paths` and the envelope's shape, so they
// survive a regeneration that renames components.
type Get<P extends keyof paths> = paths[P] extends { get: infer G } ? G : never;
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type ListBody<P extends keyof paths> = Get<P> extends { responses: { 200: infer R } } ? JsonOf<R> : never;

/** The paths whose GET answers a list: `{data: [...], pagination}`. */
export type ListPath = { [P in keyof paths]: ListBody<P> extends { data: unknown[]; pagination: object } ? P : never }[keyof paths];
/** One record of the list at `P`. */
export type ListItem<P extends ListPath> = ListBody<P> extends { data: (infer T)[] } ? T : never;
/** The query and path parameters of the list at `P` (paging is the iterator's business). */
export type ListParams<P extends ListPath> =
  Get<P> extends { parameters: infer Params }
    ? {
        query?: Omit<NonNullable<Params extends { query?: infer Q } ? Q : never>, 'page' | 'cursor'>;
        path?: Params extends { path: infer A } ? A : never;
      }
    : never;

export interface Page<T> {
  items: T[];
  pagination: { page?: number | null; limit?: number; total?: number | null; totalPages?: number | null; nextCursor?: string | null };
}

/**
 * The data of a call, unwrapped from the envelope, or a thrown `StorefrontError`:
 * `const product = unwrap(await client.POST('/products', { body }))`.
 */
export function unwrap<R extends { data?: unknown; error?: unknown; response: Response }>(
  result: R,
): NonNullable<R['data']> extends { data: infer D } ? D : NonNullable<R['data']> {
  if (!result.response.ok || result.error !== undefined) throw StorefrontError.from(result.response, result.error);
  const body = result.data as { data?: unknown } | undefined;
  return (body && typeof body === 'object' && 'data' in body ? body.data : body) as never;
}

export type StorefrontClient = Client<paths> & {
  /** The client's fetch (auth, idempotency keys, retries) for calls outside the typed methods, e.g. NDJSON streams. */
  fetch: typeof fetch;
  baseUrl: string;
  paginate<P extends ListPath>(path: P, params?: ListParams<P>): AsyncGenerator<Page<ListItem<P>>>;
  items<P extends ListPath>(path: P, params?: ListParams<P>): AsyncGenerator<ListItem<P>>;
  events: {
    /** follows the event feed live (long polls), from a saved cursor: `for await (const batch of client.events.listen({ cursor }))` */
    listen(options?: ListenOptions): AsyncGenerator<EventBatch, void, undefined>;
  };
};

export function createStorefrontClient(options: StorefrontClientOptions): StorefrontClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const transport = createTransport({ ...options, credential: options.token ?? options.apiKey });
  const client = createClient<paths>({ baseUrl, fetch: transport });

  /** Follows `nextCursor` when the server gives one, else page numbers, until a short or empty page. */
  async function* paginate<P extends ListPath>(path: P, params?: ListParams<P>): AsyncGenerator<Page<ListItem<P>>> {
    const query: Record<string, unknown> = { ...(params?.query ?? {}) };
    for (let page = 1; ; page++) {
      const get = client.GET as unknown as (path: string, init: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
      const body = unwrapEnvelope(await get(path, { params: { query, path: params?.path } }));
      yield { items: body.data as ListItem<P>[], pagination: body.pagination };
      const { nextCursor, totalPages } = body.pagination;
      if (body.data.length === 0) return;
      if (typeof nextCursor === 'string') {
        query.cursor = nextCursor;
        delete query.page;
      } else if (nextCursor === null || totalPages == null || page >= totalPages) return;
      else query.page = page + 1;
    }
  }

  async function* items<P extends ListPath>(path: P, params?: ListParams<P>): AsyncGenerator<ListItem<P>> {
    for await (const page of paginate(path, params)) yield* page.items;
  }

  const events = { listen: (listenOptions?: ListenOptions) => listenToEvents(client, listenOptions) };
  return Object.assign(client, { fetch: transport, baseUrl, paginate, items, events });
}

function unwrapEnvelope(result: { data?: unknown; error?: unknown; response: Response }): {
  data: unknown[];
  pagination: Page<unknown>['pagination'];
} {
  if (!result.response.ok || result.error !== undefined) throw StorefrontError.from(result.response, result.error);
  return result.data as { data: unknown[]; pagination: Page<unknown>['pagination'] };
}
