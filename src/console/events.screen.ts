import { Type } from '@sinclair/typebox';
import { html } from 'ghtml';
import { AppError } from '../errors.js';
import { type Event, listRecentEvents } from '../events/index.js';
import { EVENT_TYPES } from '../shared/index.js';
import type { ConsoleRouter } from './router.js';
import type { ScreenDeps } from './screen-deps.js';
import { filterForm, nextPageLink, when } from './view.js';

/**
 * Events (CONTRACT §12): the store's feed newest first (listRecentEvents of src/events: the feed's own
 * reading, scopes and snapshot rule, backwards by cursor), filtered by type and by record ("Search" takes a
 * record id), each event's JSON. "Live" adds events as they commit without reloading: htmx swaps in a
 * poller that long-polls GET /events through the API (§9.4, `wait`) from the newest event shown; each
 * answer puts its events on top of the table (an out-of-band swap) and a new poller carrying the next
 * cursor, which asks again at once. With JavaScript off, "Live" reloads the page.
 */

const PATH = '/console/events';
const PAGE_SIZE = 50;
const RECORD_ID = /^[0-9a-f]{24}$/;
const TEXT = { maxLength: 200 };
const EventsQuery = Type.Object({
  type: Type.Optional(Type.Union([Type.Literal(''), ...EVENT_TYPES.map((type) => Type.Literal(type))])),
  search: Type.Optional(Type.String(TEXT)),
  cursor: Type.Optional(Type.String({ maxLength: 1000 })),
});
const LiveQuery = Type.Object({
  type: Type.Optional(Type.String(TEXT)),
  search: Type.Optional(Type.String(TEXT)),
  cursor: Type.String({ maxLength: 1000 }),
  /** the first request after "Live": answer the poller at once, without waiting */
  start: Type.Optional(Type.Literal('1')),
});
interface Filters {
  type?: string;
  search?: string;
}

/** GET /events's query for these filters and the screen's page size. */
const apiQuery = (filters: Filters, cursor: string) => ({
  types: filters.type || undefined,
  recordId: filters.search || undefined,
  limit: String(PAGE_SIZE),
  cursor,
});

const hrefWith = (path: string, params: Record<string, string | undefined>) => {
  const query = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1])));
  return query.size ? `${path}?${query}` : path;
};

function eventRows(events: Event[]): string {
  return events
    .map(
      (event) => html`<tr><td>${when(event.createdAt)}</td><td>${event.type}</td>
<td><a href="${hrefWith(PATH, { search: event.data.id })}">${event.data.id}</a></td>
<td><details><summary>${event.id}</summary><pre class="json" tabindex="0" aria-label="${`Event ${event.id}`}">${JSON.stringify(event, null, 2)}</pre></details></td></tr>`,
    )
    .join('');
}

/** Always a table with its body, even empty: "Live" adds rows to it (and the stylesheet then hides "No events."). */
const eventsTable = (events: Event[]) =>
  html`<table><caption class="visually-hidden">Events, newest first</caption>
<thead><tr><th scope="col">Committed</th><th scope="col">Type</th><th scope="col">Record</th><th scope="col">Event (JSON)</th></tr></thead>
<tbody id="events-body">!${eventRows(events)}</tbody></table>!${events.length ? '' : html`<p id="events-none" class="muted">No events.</p>`}`;

/** "Live": with JavaScript, swaps in the poller; without, submits the filters and reloads the page. */
function liveControl(filters: Filters, cursor: string): string {
  const start = hrefWith(`${PATH}/live`, { ...filters, cursor, start: '1' });
  const hidden = Object.entries(filters)
    .filter(([, value]) => value)
    .map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)
    .join('');
  return html`<div id="live"><form method="get" action="${PATH}" class="inline">!${hidden}<button type="submit" hx-get="${start}" hx-target="#live" hx-swap="outerHTML">Live</button></form></div>`;
}

/** The poller: asks for what commits after `cursor` as soon as it is on the page, and is replaced by the answer. */
function poller(filters: Filters, cursor: string, status: string, delay = ''): string {
  const next = hrefWith(`${PATH}/live`, { ...filters, cursor });
  return html`<div id="live" hx-get="${next}" hx-trigger="${`load${delay}`}" hx-swap="outerHTML">
<p role="status" class="muted">${status} <a href="${hrefWith(PATH, { ...filters })}">Stop</a></p></div>`;
}

export function registerEventsScreen(router: ConsoleRouter, { api, ctx }: ScreenDeps): void {
  // A long poll answers before the socket's idle cut, which a console request does not lengthen.
  const wait = String(Math.max(1, Math.min(20, Math.floor(ctx.config.socketTimeoutMs / 2000))));

  router.page('/events', { querystring: EventsQuery }, async ({ query, session }) => {
    const filters: Filters = { type: query.type || undefined, search: query.search?.trim() || undefined };
    const page = await listRecentEvents(
      ctx.db,
      { storeId: session.storeId, scopes: ['*'] },
      { types: filters.type, recordId: filters.search, cursor: query.cursor, limit: PAGE_SIZE },
    );
    // Live reads GET /events, which takes only a record id as recordId: another search has nothing to follow.
    const live = page.liveCursor && (!filters.search || RECORD_ID.test(filters.search)) ? liveControl(filters, page.liveCursor) : '';
    const form = filterForm(PATH, [
      { name: 'type', label: 'Type', value: filters.type, options: [...EVENT_TYPES] },
      { name: 'search', label: 'Search', value: filters.search },
    ]);
    return {
      title: 'Events',
      body: html`<p class="muted">Every committed change of the store, newest first. "Search" takes a record id: that record's events.</p>
!${form}!${live}!${eventsTable(page.data)}!${nextPageLink(PATH, filters as Record<string, string | undefined>, page.nextCursor)}`,
    };
  });

  router.fragment('/events/live', { querystring: LiveQuery }, async ({ query, session }) => {
    const filters: Filters = { type: query.type || undefined, search: query.search || undefined };
    if (query.start) return poller(filters, query.cursor, 'Live: new events appear at the top as they commit.');
    try {
      const answer = await api.get(session, '/events', { ...apiQuery(filters, query.cursor), wait });
      const events = answer.body.data as Event[];
      const status = events.length ? `Live: ${events.length} new at ${when(new Date().toISOString())}.` : 'Live: waiting for events.';
      const added = events.length
        ? // in a <template>: rows outside a table would be dropped by the HTML parser (htmx's way for table parts)
          html`<template><tbody hx-swap-oob="afterbegin:#events-body">!${eventRows(events.reverse())}</tbody></template>`
        : '';
      return `${poller(filters, answer.body.pagination.nextCursor, status)}${added}`;
    } catch (error) {
      // Too many long polls of this admin at once (other tabs): ask again a little later, from the same place.
      if (error instanceof AppError && error.status === 429) return poller(filters, query.cursor, 'Live: busy, trying again.', ' delay:5s');
      throw error;
    }
  });
}
