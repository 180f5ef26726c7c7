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
