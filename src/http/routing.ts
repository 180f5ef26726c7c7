import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import Router from 'find-my-way';
import { AppError, notFound, sendError } from '../errors.js';
import { ErrorEnvelope } from '../shared/index.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * Fastify answers 404 for a known path with the wrong method; a mirror of the route table lets
 * the not-found handler tell 404 from 405 and name the allowed methods.
 */
export function createRouteMirror() {
  const router = Router({ ignoreTrailingSlash: true });
  const noop = () => undefined;
  return {
    onRoute(route: RouteOptions): void {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (!router.hasRoute(method as never, route.url)) router.on(method as never, route.url, noop);
      }
      // Every route documents and serializes the one error envelope.
      if (route.schema && !route.schema.hide) {
        route.schema.response = { '4xx': ErrorEnvelope, '5xx': ErrorEnvelope, ...(route.schema.response as object) };
      }
    },
    notFoundHandler(request: FastifyRequest, reply: FastifyReply): FastifyReply {
      const path = request.url.split('?')[0];
      const allowed = METHODS.filter((method) => router.find(method as never, path));
      if (allowed.length === 0) return sendError(reply, notFound('Route'));
      reply.header('Allow', allowed.join(', '));
      return sendError(reply, new AppError(405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed on this path`));
    },
  };
}

/**
 * Every route of the API says who may call it: an API-key scope, access tokens only, or public.
 * A route that says none is refused at registration rather than left open to every credential.
 */
export function assertAccessDeclared(route: Pick<RouteOptions, 'method' | 'url' | 'config'>): void {
  const config = (route.config ?? {}) as { public?: boolean; scope?: unknown; tokenOnly?: boolean };
  if (config.public || config.scope || config.tokenOnly) return;
  throw new Error(`${String(route.method)} ${route.url} declares no access: set config.scope, config.tokenOnly or config.public`);
}
