import { Type } from '@sinclair/typebox';
import { html } from 'ghtml';
import {
  type ErrorGroup,
  listRequests,
  type RequestListQuery,
  type RequestOutput,
  recentErrorGroups,
  requestFilterChoices,
  STATUS_CLASSES,
} from '../request-log/index.js';
import type { ConsoleRouter } from './router.js';
import type { ScreenDeps } from './screen-deps.js';
import { type Cell, filterForm, link, nextPageLink, table, when } from './view.js';

/**
 * Requests (CONTRACT §12): the store's recent API requests from its Requests log (src/request-log), filtered
 * by status class, route template, credential and a search (request id, Idempotency-Key or error code),
 * newest first, paged by cursor; above them, the last 24 hours' errors grouped by (code, route).
 */

const TEXT = { maxLength: 500 };
const RequestsQuery = Type.Object({
  status: Type.Optional(Type.Union([Type.Literal(''), ...STATUS_CLASSES.map((name) => Type.Literal(name))])),
  route: Type.Optional(Type.String(TEXT)),
  credential: Type.Optional(Type.String(TEXT)),
  search: Type.Optional(Type.String(TEXT)),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
});
type Filters = Omit<RequestListQuery, 'limit' | 'status'> & { status?: string };

const PATH = '/console/requests';
const PAGE_SIZE = 50;

/** The screen's URL with these filters (empty ones left out). */
function hrefOf(filters: Filters): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  const query = params.toString();
  return query ? `${PATH}?${query}` : PATH;
}

/** The log's own values as choices; the current value stays one even when it is not among them. */
const choicesWith = (values: readonly string[], current: string | undefined) =>
  current && !values.includes(current) ? [current, ...values] : [...values];

function filters(current: Filters, choices: { routes: string[]; credentials: string[] }): string {
  return filterForm(PATH, [
    { name: 'status', label: 'Status', value: current.status, options: [...STATUS_CLASSES] },
    { name: 'route', label: 'Route', value: current.route, options: choicesWith(choices.routes, current.route) },
    { name: 'credential', label: 'Credential', value: current.credential, options: choicesWith(choices.credentials, current.credential) },
    { name: 'search', label: 'Search', value: current.search },
  ]);
}

const errorRows = (groups: ErrorGroup[]): Cell[][] =>
  groups.map((group) => [
    group.code ?? '—',
    link(hrefOf({ route: group.route, search: group.code ?? undefined }), group.route),
    group.count,
    when(group.lastAt),
  ]);

const requestRows = (rows: RequestOutput[]): Cell[][] =>
  rows.map((row) => [
    when(row.at),
    row.method,
    row.route,
    row.status,
    row.credential,
    { html: html`<code>${row.requestId}</code>` },
    row.idempotencyKey,
    row.errorCode,
    row.durationMs.toFixed(1),
  ]);

const REQUEST_COLUMNS = ['Time', 'Method', 'Route', 'Status', 'Credential', 'Request id', 'Idempotency-Key', 'Error', 'ms'];

export function registerRequestsScreen(router: ConsoleRouter, { ctx }: ScreenDeps): void {
  router.page('/requests', { querystring: RequestsQuery }, async ({ query, session }) => {
    const current: Filters = { ...query, status: query.status || undefined };
    const [page, groups, choices] = await Promise.all([
      listRequests(ctx.db, session.storeId, { ...current, status: current.status as RequestListQuery['status'], limit: PAGE_SIZE }),
      recentErrorGroups(ctx.db, session.storeId),
      requestFilterChoices(ctx.db, session.storeId),
    ]);
    const off = ctx.config.requestLog
      ? ''
      : html`<p class="muted">This server keeps no new requests (STOREFRONT_REQUEST_LOG=false); what is shown was kept before.</p>`;
    return {
      title: 'Requests',
      body: html`<p class="muted">The API requests of this store's credentials: the newest 10,000, at most ${ctx.config.requestLogDays} days.</p>
!${off}
<h2>Errors in the last 24 hours</h2>
!${table('Errors of the last 24 hours by code and route', ['Code', 'Route', 'Count', 'Last'], errorRows(groups))}
<h2>Requests</h2>
!${filters(current, choices)}
!${table('Requests, newest first', REQUEST_COLUMNS, requestRows(page.data))}
!${nextPageLink(PATH, current, page.nextCursor)}`,
    };
  });
}
