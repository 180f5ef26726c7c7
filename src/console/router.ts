import { type Static, type TObject, type TSchema, Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/index.js';
import type { ConsoleAssets } from './assets.js';
import { NAV, type Page, renderPage } from './layout.js';
import type { ConsoleSessionGuard } from './session-guard.js';
import type { ConsoleSession } from './sessions.js';

/**
 * How a screen registers (src/console/README.md): `page` for a GET answered with the layout around it,
 * `fragment` for a GET answered with markup alone (what htmx swaps in), `action` for a POST (CSRF checked
 * before the handler runs). Paths are under /console; the session is checked before anything else.
 */

export interface ScreenSchema {
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
}

type Of<T> = T extends TSchema ? Static<T> : Record<string, never>;

export interface ScreenInput<S extends ScreenSchema> {
  params: Of<S['params']>;
  query: Of<S['querystring']>;
  body: Of<S['body']>;
  session: ConsoleSession;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** What an action answers: a page, or where the browser goes next (303). */
export type ActionResult = Page | { redirect: string };

export interface ConsoleRouter {
  page<S extends ScreenSchema>(path: string, schema: S, render: (input: ScreenInput<S>) => Promise<Page>): void;
  fragment<S extends ScreenSchema>(path: string, schema: S, render: (input: ScreenInput<S>) => Promise<string>): void;
  action<S extends ScreenSchema>(path: string, schema: S, handle: (input: ScreenInput<S>) => Promise<ActionResult>): void;
  /**
   * a POST of a multipart form (a file): session and CSRF (from the action's query, `?_csrf=`) are checked
   * before the handler reads a byte of the body, which it reads itself (`request.file()`)
   */
  upload<S extends ScreenSchema>(path: string, schema: S, handle: (input: ScreenInput<S>) => Promise<ActionResult>): void;
  /** a GET answered with a file (an export, failed rows): its headers and its stream, as they come */
  download<S extends ScreenSchema>(
    path: string,
    schema: S,
    open: (input: ScreenInput<S>) => Promise<{ headers: Record<string, string>; stream: NodeJS.ReadableStream }>,
  ): void;
  /** the GET paths served so far (the navigation entries without one answer "coming") */
  readonly served: ReadonlySet<string>;
}

const HTML = 'text/html; charset=utf-8';
const CSRF_FIELD = { _csrf: Type.Optional(Type.String({ maxLength: 200 })) };

/** An action's form carries the CSRF field besides its own. */
function withCsrfField(schema: ScreenSchema): ScreenSchema {
  const own = (schema.body as TObject | undefined)?.properties ?? {};
  return { ...schema, body: Type.Object({ ...own, ...CSRF_FIELD }) };
}

function inputOf<S extends ScreenSchema>(request: FastifyRequest, reply: FastifyReply): ScreenInput<S> {
  return {
    params: request.params as Of<S['params']>,
    query: request.query as Of<S['querystring']>,
    body: request.body as Of<S['body']>,
    session: request.consoleSession,
    request,
    reply,
  };
}

export function createRouter(scope: App, assets: ConsoleAssets, guard: ConsoleSessionGuard): ConsoleRouter {
  const served = new Set<string>();
  const sendPage = (reply: FastifyReply, session: ConsoleSession, page: Page) =>
    reply
      .code(page.status ?? 200)
      .type(HTML)
      .send(renderPage(assets, session, page));
  return {
    served,
    page(path, given, render) {
      const schema: ScreenSchema = given;
      const full = `/console${path}`.replace(/\/$/, '');
      served.add(full);
      const own = NAV.find((entry) => entry.path === full)?.name;
      scope.get(path, { schema, preValidation: guard.requirePage }, async (request, reply) => {
        const page = await render(inputOf(request, reply));
        return sendPage(reply, request.consoleSession, { nav: own, ...page });
      });
    },
    fragment(path, given, render) {
      const schema: ScreenSchema = given;
      scope.get(path, { schema, preValidation: guard.requirePage }, async (request, reply) =>
        reply.type(HTML).send(await render(inputOf(request, reply))),
      );
    },
    action(path, given, handle) {
      const schema: ScreenSchema = given;
      scope.post(path, { schema: withCsrfField(schema), preValidation: guard.requireAction }, async (request, reply) => {
        const result = await handle(inputOf(request, reply));
        if ('redirect' in result) return reply.redirect(result.redirect, 303);
        return sendPage(reply, request.consoleSession, result);
      });
    },
    download(path, given, open) {
      const schema: ScreenSchema = given;
      scope.get(path, { schema, preValidation: guard.requirePage }, async (request, reply) => {
        const file = await open(inputOf(request, reply));
        return reply.headers(file.headers).send(file.stream);
      });
    },
    upload(path, given, handle) {
      const schema: ScreenSchema = {
        ...given,
        querystring: Type.Object({ ...(given.querystring as TObject | undefined)?.properties, ...CSRF_FIELD }),
      };
      scope.post(path, { schema, preValidation: guard.requireAction }, async (request, reply) => {
        const result = await handle(inputOf(request, reply));
        if ('redirect' in result) return reply.redirect(result.redirect, 303);
        return sendPage(reply, request.consoleSession, result);
      });
    },
  };
}
