import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { guardedLookup, hostOf, isPrivateAddress } from './target.js';

/** What one attempt came to: a 2xx is a success; anything else is a failed attempt. */
export interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  /** the first 4 KB of the receiver's answer */
  body: string | null;
  error: string | null;
  /** no answer within the timeout (a receiver that keeps doing this is paused) */
  timedOut: boolean;
}

export interface Attempt {
  url: string;
  secret: string;
  /** webhook-id: the event id, the same on every retry, so receivers dedupe by it */
  eventId: string;
  payload: string;
  timeoutMs: number;
  allowPrivate: boolean;
  /** aborted when the process stops: the attempt ends as failed and is retried on schedule */
  signal?: AbortSignal;
  /** with read replicas: a WAL position at or past the event's, so a receiver reading back with it sees the event's state */
  consistency?: string;
}

const KEPT_BYTES = 4096;

/** Standard Webhooks 1.0 headers for this attempt, signed by the reference library. */
export function signedHeaders(secret: string, eventId: string, payload: string, at = new Date()): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Storefront-Webhooks/1',
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(eventId, at, payload),
  };
}

/** POSTs the event once: redirects are not followed, the answer is cut at 4 KB, the whole exchange at timeoutMs. */
export function attempt({ url, secret, eventId, payload, timeoutMs, allowPrivate, signal, consistency }: Attempt): Promise<AttemptOutcome> {
  const target = new URL(url);
  const host = hostOf(target);
  // An IP literal is connected to without a lookup: judged here instead.
  if (!allowPrivate && isIP(host) && isPrivateAddress(host))
    return Promise.resolve(failed(`refused: ${host} is a special-purpose address`));
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const settle = (outcome: AttemptOutcome) => {
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = client.request(target, {
      method: 'POST',
      headers: {
        ...signedHeaders(secret, eventId, payload),
        'content-length': Buffer.byteLength(payload),
        ...(consistency ? { 'storefront-consistency': consistency } : {}),
      },
      lookup: guardedLookup(allowPrivate) as never,
      agent: false,
      signal,
    });
    const timer = setTimeout(() => {
      request.destroy();
      settle({ ...failed(`no answer within ${timeoutMs} ms`), timedOut: true });
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) =>
      settle(failed(signal?.aborted ? 'interrupted: the server stopped' : describe(error))),
    );
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      readHead(response).then((body) => {
        const ok = status >= 200 && status < 300;
        settle({
          ok,
          status,
          body,
          timedOut: false,
          error: ok ? null : status >= 300 && status < 400 ? `redirect (${status}) not followed` : `HTTP ${status}`,
        });
      });
    });
    request.end(payload);
  });
}

const failed = (error: string): AttemptOutcome => ({ ok: false, status: null, body: null, error, timedOut: false });

function describe(error: NodeJS.ErrnoException): string {
  if (error.code === 'EPRIVATE') return `refused: ${error.message}`;
  return error.code ? `${error.code}: ${error.message}` : error.message;
}

/** The first KEPT_BYTES of the answer; the rest is not read (the connection is dropped). */
function readHead(response: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => resolve(Buffer.concat(chunks).subarray(0, KEPT_BYTES).toString('utf8'));
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= KEPT_BYTES) {
        response.destroy();
        done();
      }
    });
    response.on('end', done);
    response.on('error', done);
    response.on('close', done);
  });
}
