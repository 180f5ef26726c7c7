import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * A span per request: started as the request arrives (continuing the caller's trace when it sends W3C
 * `traceparent`), named by method and route template, ended as the response is sent, with the status and
 * the request id (the X-Request-Id the response carries). The span is made the active context again at each
 * step the request takes (body parsing runs in the socket's context, not the hook's), so the statements the
 * handler sends are its children.
 */

export const REQUEST_ID_ATTRIBUTE = 'storefront.request_id';

interface Traced {
  span: Span;
  context: Context;
}

const routeOf = (request: FastifyRequest): string | undefined => request.routeOptions.url;

export function registerRequestSpans(app: FastifyInstance, tracer: Tracer): void {
  const traced = new WeakMap<FastifyRequest, Traced>();
  const reenter = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const entry = traced.get(request);
    if (entry) context.with(entry.context, done);
    else done();
  };
  app.addHook('onRequest', (request, _reply, done) => {
    const route = routeOf(request);
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = tracer.startSpan(
      route ? `${request.method} ${route}` : request.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'url.path': request.url.split('?', 1)[0],
          ...(route ? { 'http.route': route } : {}),
          [REQUEST_ID_ATTRIBUTE]: request.id,
        },
      },
      parent,
    );
    const entry = { span, context: trace.setSpan(parent, span) };
    traced.set(request, entry);
    context.with(entry.context, done);
  });
  app.addHook('preValidation', reenter);
  app.addHook('preHandler', reenter);
  app.addHook('onResponse', (request, reply, done) => {
    const entry = traced.get(request);
    if (entry) {
      entry.span.setAttribute('http.response.status_code', reply.statusCode);
      // A server span fails on a 5xx only: a 4xx is the caller's mistake, answered as designed.
      if (reply.statusCode >= 500) entry.span.setStatus({ code: SpanStatusCode.ERROR });
      entry.span.end();
      traced.delete(request);
    }
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    const entry = traced.get(request);
    if (entry) {
      entry.span.setStatus({ code: SpanStatusCode.ERROR, message: 'the client closed the connection' });
      entry.span.end();
      traced.delete(request);
    }
    done();
  });
}
