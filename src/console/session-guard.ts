import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { AppContext } from '../http/index.js';
import { type ConsoleSession, csrfMatches, findSession, SESSION_COOKIE } from './sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** the signed-in console session (set by the console's session guard) */
    consoleSession: ConsoleSession;
  }
}

export interface ConsoleSessionGuard {
  /** preValidation of a GET screen: no live session → 303 to the sign-in page */
  requirePage(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** preValidation of every POST: a live session and its CSRF token, else 403 before anything changes */
  requireAction(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  setCookie(reply: FastifyReply, value: string): void;
  clearCookie(reply: FastifyReply): void;
}

/**
 * The CSRF token a request carries: htmx sends it as a header, a plain form as the field `_csrf`, a file
 * upload (multipart, whose fields are read only after this check) in its action's query (`?_csrf=`).
 */
function csrfOf(request: FastifyRequest): unknown {
  const header = request.headers['x-csrf-token'];
  if (typeof header === 'string') return header;
  const body = request.body as Record<string, unknown> | undefined;
  if (body && typeof body === 'object') return body._csrf;
  return (request.query as Record<string, unknown> | undefined)?._csrf;
}

/** A browser's cross-site POST names its origin; one that names another host is refused whatever it carries. */
export function crossSite(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (!origin || origin === 'null') return origin === 'null';
  try {
    return new URL(origin).host !== request.headers.host;
  } catch {
    return true;
  }
}

export const csrfRefused = () =>
  new AppError(403, 'FORBIDDEN', 'The form is stale or was not sent from the console: reload the page and try again');

export function createSessionGuard(ctx: AppContext): ConsoleSessionGuard {
  const secure = ctx.config.publicUrl.startsWith('https:');
  const lookUp = (request: FastifyRequest) => findSession(ctx.db, ctx.config.jwtSecret, request.cookies[SESSION_COOKIE]);
  const cookieOptions = { httpOnly: true, sameSite: 'strict', path: '/console', secure } as const;
  return {
    async requirePage(request, reply) {
      const session = await lookUp(request);
      if (!session) {
        const next = encodeURIComponent(request.url);
        return reply.redirect(`/console/login?next=${next}`, 303);
      }
      request.consoleSession = session;
    },
    async requireAction(request) {
      const session = await lookUp(request);
      if (!session || crossSite(request) || !csrfMatches(session, csrfOf(request))) throw csrfRefused();
      request.consoleSession = session;
    },
    setCookie(reply, value) {
      reply.setCookie(SESSION_COOKIE, value, { ...cookieOptions, maxAge: ctx.config.consoleSessionHours * 3600 });
    },
    clearCookie(reply) {
      reply.clearCookie(SESSION_COOKIE, cookieOptions);
    },
  };
}
