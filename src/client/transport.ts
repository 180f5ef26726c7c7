/**
 * The fetch every call of the client goes through: bearer auth, an `Idempotency-Key` on every write, and
 * retries of what is safe to retry. Exposed as `client.fetch` for calls the typed methods do not cover
 * (streaming an NDJSON upload or download).
 */

export interface RetryOptions {
  /** attempts after the first (default 3; 0 turns retries off) */
  retries?: number;
  /** the first backoff, doubled per attempt, with full jitter (default 250 ms) */
  baseDelayMs?: number;
  /** no wait is longer: a `Retry-After` beyond it is not waited for, the answer is returned (default 30 s) */
  maxDelayMs?: number;
}

export interface ConsistencyOptions {
  /**
   * Read your writes across servers and replicas: the newest `Storefront-Consistency` token a write answered
   * is sent on every later call of this client, so no read answers older data than the client wrote
   * (docs/client.md, "Reading your writes"). Off by default: the server remembers each credential's writes
   * for 60 s anyway; turn it on when several credentials or processes share what they wrote.
   */
  readYourWrites?: boolean;
}

export interface TransportOptions extends RetryOptions, ConsistencyOptions {
  /** an access token or an API key; a function is asked before every attempt (a token you refresh) */
  credential?: string | (() => string | Promise<string>);
  fetch?: typeof fetch;
  /** waits between attempts; tests replace it */
  sleep?: (ms: number) => Promise<void>;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// 429: rate limited; 503: contention or the database away; 409 only as IDEMPOTENCY_KEY_IN_USE (below).
const RETRY_STATUSES = new Set([429, 503]);

const CONSISTENCY = 'storefront-consistency';
const POSITION = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

/** A token's order (the server's tokens are WAL positions, `X/Y` in hex); null for a token of another form. */
function orderOf(token: string): bigint | null {
  const match = POSITION.exec(token);
  return match ? (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`) : null;
}

/** The newest token seen: answers may arrive out of order, so a token replaces the kept one only when newer. */
function newestToken() {
  let kept: string | null = null;
  return {
    get: () => kept,
    saw(token: string | null) {
      if (!token) return;
      const [next, current] = [orderOf(token), kept === null ? null : orderOf(kept)];
      if (kept === null || next === null || current === null || next > current) kept = token;
    },
  };
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `Retry-After` in ms: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function backoffMs(attempt: number, baseDelayMs: number, maxDelayMs: number): number {
  return Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
}

/** A 409 is retried only when it says the same key is still being processed (the first try is running). */
async function isKeyInUse(response: Response): Promise<boolean> {
  if (response.status !== 409) return false;
  const body = await response
    .clone()
    .json()
    .catch(() => null);
  return body?.error?.code === 'IDEMPOTENCY_KEY_IN_USE';
}

export function createTransport(options: TransportOptions): typeof fetch {
  const send = options.fetch ?? fetch;
  const sleep = options.sleep ?? defaultSleep;
  const retries = options.retries ?? 3;
  const baseDelayMs = options.baseDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const written = options.readYourWrites ? newestToken() : null;

  async function prepare(input: RequestInfo | URL, init?: RequestInit): Promise<Request> {
    const request = new Request(input, init);
    const credential = typeof options.credential === 'function' ? await options.credential() : options.credential;
    if (credential && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${credential}`);
    // One key per call, made here once: every retry of this call carries the same key, so the server runs it once.
    if (WRITES.has(request.method) && !request.headers.has('idempotency-key') && !new URL(request.url).pathname.endsWith('/auth')) {
      request.headers.set('idempotency-key', crypto.randomUUID());
    }
    const token = written?.get();
    if (token && !request.headers.has(CONSISTENCY)) request.headers.set(CONSISTENCY, token);
    return request;
  }

  /** The wait before retrying after `response`, or null when it is the answer to return. */
  async function retryDelay(response: Response, keyed: boolean, attempt: number): Promise<number | null> {
    const retryable = RETRY_STATUSES.has(response.status) || (keyed && (await isKeyInUse(response)));
    if (!retryable) return null;
    const told = retryAfterMs(response.headers.get('retry-after'));
    if (told === null) return backoffMs(attempt, baseDelayMs, maxDelayMs);
    return told > maxDelayMs ? null : told;
  }

  return async function storefrontFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = await prepare(input, init);
    const keyed = request.headers.has('idempotency-key');
    const safe = request.method === 'GET' || request.method === 'HEAD' || keyed;
    // A streamed body is consumed by the first attempt: it is sent once.
    const attempts = init?.body instanceof ReadableStream ? 1 : retries + 1;
    for (let attempt = 0; ; attempt++) {
      const last = attempt + 1 >= attempts;
      let response: Response;
      try {
        response = await send(last ? request : request.clone());
      } catch (error) {
        // A network error: a write may or may not have happened; only a keyed write (or a read) is safe again.
        if (last || !safe || request.signal.aborted) throw error;
        await sleep(backoffMs(attempt, baseDelayMs, maxDelayMs));
        continue;
      }
      if (response.ok) written?.saw(response.headers.get(CONSISTENCY));
      const wait = last ? null : await retryDelay(response, keyed, attempt);
      if (wait === null) return response;
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}
