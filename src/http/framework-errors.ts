import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { handleError, notFound, sendError } from '../errors.js';

/**
 * Failures Fastify answers before any route or error handler runs, put into the one error envelope
 * (CONTRACT §3). A path that cannot be decoded (`%E0%A4%A`) or a path segment longer than any id can be
 * names no record: 404, as for any path id that is not an id (CONTRACT §2).
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header('X-Request-Id', request.id);
  if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendError(reply, notFound());
  return handleError(error, request, reply);
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'REQUEST_TIMEOUT', 'The request was not received in time'],
  HPE_HEADER_OVERFLOW: [431, 'HEADERS_TOO_LARGE', 'The request headers are larger than the limit'],
};
const MALFORMED: [number, string, string] = [400, 'VALIDATION_ERROR', 'The request is not valid HTTP'];

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/**
 * Requests Node's HTTP parser refuses (a control character in a header, a broken request line) never
 * reach Fastify's routing: the answer is written to the socket here, in the envelope, as Fastify's default does.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] = (error.code && CLIENT_ERRORS[error.code]) || MALFORMED;
  const body = JSON.stringify({ success: false, error: { code, message, details: [] } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
