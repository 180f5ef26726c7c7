import type { FastifyRequest } from 'fastify';
import type { ErrorCode } from '../errors.js';
import type { App, Auth } from './context.js';

/** A route template for labels and logs: what the router matched, never the URL a caller sent. */
export const routeOf = (request: FastifyRequest): string => request.routeOptions.url ?? 'unmatched';

/** One answered request as its observers see it (metrics, the Requests log): read once, in one hook. */
export interface Answer {
  method: string;
  /** the route's template (`/api/v1/products/:id`), `unmatched` when no route matched */
  route: string;
  status: number;
  /** from the request arriving to the response sent */
  ms: number;
  /** when the response was sent (in the order answers are observed, so a log sorted by it is in that order) */
  at: Date;
  requestId: string;
  /** the credential that named the request's store; undefined when none did (public routes, refused credentials) */
  auth: Auth | undefined;
  /** the request's Idempotency-Key as sent (at most 255 characters of it), or null */
  idempotencyKey: string | null;
  /** the error envelope's code when the answer was one (src/errors.ts, sendError) */
  errorCode: ErrorCode | null;
}

export type AnswerObserver = (answer: Answer) => void;

const MAX_KEY_LENGTH = 255;

/**
 * The one place every answered request passes (an `onResponse` hook on the whole app): each observer gets
 * the same facts, so the route template and the timing are read in one place. Observers run after the
 * response is sent and must not throw or wait: what they keep, they keep in memory (the Requests log writes
 * its batches later, src/request-log).
 */
export function observeAnswers(app: App, observers: readonly AnswerObserver[]): void {
  app.decorateReply('errorCode', null);
  app.addHook('onResponse', (request, reply, done) => {
    const ms = reply.elapsedTime;
    const key = request.headers['idempotency-key'];
    const answer: Answer = {
      method: request.method,
      route: routeOf(request),
      status: reply.statusCode,
      ms,
      at: new Date(),
      requestId: request.id,
      auth: request.auth,
      idempotencyKey: typeof key === 'string' ? key.slice(0, MAX_KEY_LENGTH) : null,
      errorCode: reply.errorCode,
    };
    for (const observe of observers) observe(answer);
    done();
  });
}
