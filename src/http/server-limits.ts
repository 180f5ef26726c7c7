import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyError, FastifyHttpOptions, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

/**
 * What protects the process from slow, idle and too many clients (README, "Configuration"):
 * - headers must arrive within `headersTimeoutMs` of the connection (or of the previous response);
 * - a whole request, body included, within `requestTimeoutMs` (a body trickled a byte at a time is cut);
 * - a keep-alive connection idle for `keepAliveTimeoutMs` after a response is closed;
 * - a socket with no traffic either way for `socketTimeoutMs` is closed (a client that stopped reading);
 * - at most `maxConnections` at once: further connections are closed as they arrive.
 */

type ServerLimits = Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs' | 'socketTimeoutMs'>;

/**
 * Node checks the header and request deadlines on a timer (30 s by default, which would let a 10 s
 * deadline run to 40 s); a fraction of the shorter deadline keeps the cut close to it.
 */
function checkingInterval(limits: ServerLimits): number {
  return Math.max(50, Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)));
}

export function serverOptions(limits: ServerLimits): Partial<FastifyHttpOptions<Server>> {
  return {
    connectionTimeout: limits.socketTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: checkingInterval(limits) },
    clientErrorHandler,
  };
}

const CLIENT_ERRORS: Record<string, [number, string, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'REQUEST_TIMEOUT', 'The request did not arrive in time'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'HEADERS_TOO_LARGE', 'The request headers are too large'],
};

/**
 * Errors Node raises before a request reaches Fastify (a deadline passed, unparsable HTTP): answered
 * with the error envelope when the socket can still take an answer, then the connection is closed.
 */
function clientErrorHandler(this: { log: FastifyBaseLogger }, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, code, message] = CLIENT_ERRORS[error.code ?? ''] ?? [
    400,
    'Bad Request',
    'VALIDATION_ERROR',
    'The request is not valid HTTP',
  ];
  this.log.debug({ err: error }, 'client error');
  const response = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (socket.writable && !response?.headersSent) {
    const body = JSON.stringify({ success: false, error: { code, message, details: [] } });
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Connections beyond the cap are closed by Node as they arrive; one warning per burst says so. */
export function capConnections(
  server: { maxConnections: number; on(event: 'drop', listener: () => void): unknown },
  max: number,
  log: FastifyBaseLogger,
): void {
  server.maxConnections = max;
  let dropped = 0;
  server.on('drop', () => {
    if (dropped++ === 0) {
      setTimeout(() => {
        log.warn({ dropped, maxConnections: max }, 'connections refused: STOREFRONT_MAX_CONNECTIONS reached');
        dropped = 0;
      }, 10_000).unref();
    }
  });
}

/** Resolves once the rest of the request's body has been read and thrown away, or at most `maxBytes` more. */
function discardRest(raw: IncomingMessage, maxBytes: number): Promise<void> {
  const declared = Number(raw.headers['content-length']);
  if (raw.complete || raw.readableEnded || raw.destroyed || declared > maxBytes) return Promise.resolve();
  return new Promise((resolve) => {
    let discarded = 0;
    const done = () => {
      raw.off('data', onData).off('end', done).off('close', done).off('error', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > maxBytes) done();
    };
    raw.on('data', onData).once('end', done).once('close', done).once('error', done);
    raw.resume();
  });
}

/**
 * An onError hook: when the answer is going to close the connection (Fastify does so when it refuses a
 * body, e.g. over the limit) while the client is still sending that body, the rest is read first. Else
 * the socket closes with unread data, the kernel answers the client's next bytes with a reset, and the
 * client often loses the 413 it had not read yet (EPIPE/ECONNRESET instead).
 */
export function drainRefusedBody(maxBytes: number) {
  return async (request: FastifyRequest, reply: FastifyReply, _error: FastifyError): Promise<void> => {
    if (maxBytes === 0 || String(reply.getHeader('connection')).toLowerCase() !== 'close') return;
    await discardRest(request.raw, maxBytes);
  };
}
