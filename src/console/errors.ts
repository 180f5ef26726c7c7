import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import { toAppError } from '../errors.js';
import type { ConsoleAssets } from './assets.js';
import { renderBarePage, renderPage } from './layout.js';

/** The console answers errors as pages, with the status and headers (Retry-After) the API would give. */
export function consoleErrorHandler(assets: ConsoleAssets) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error);
    if (appError.status >= 500) request.log.error({ err: error }, 'console request failed');
    for (const [name, value] of Object.entries(appError.headers)) reply.header(name, value);
    const title = appError.status === 404 ? 'Not found' : appError.status === 429 ? 'Too many attempts' : 'Something went wrong';
    const message = appError.status >= 500 ? 'The server could not answer. Try again in a moment.' : appError.message;
    // a 400 names each field it refuses, as the API's error details do
    const details = appError.status < 500 ? appError.details.map((detail) => html`<li>${detail.field}: ${detail.message}</li>`) : [];
    const list = details.length ? html`<ul class="error-details">!${details.join('')}</ul>` : '';
    const body = html`<p class="error" role="alert">${message}</p>!${list}`;
    const session = request.consoleSession;
    const page = session
      ? renderPage(assets, session, { title, body })
      : renderBarePage(assets, title, html`<h1>${title}</h1>!${body}<p><a href="/console">Back to the console</a></p>`);
    return reply.code(appError.status).type('text/html; charset=utf-8').send(page);
  };
}
