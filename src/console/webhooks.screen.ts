import { Type } from '@sinclair/typebox';
import { html } from 'ghtml';
import { IdParams } from '../shared/index.js';
import { csrfField } from './layout.js';
import type { ConsoleRouter } from './router.js';
import type { ScreenDeps } from './screen-deps.js';
import type { ConsoleSession } from './sessions.js';
import { facts, filterForm, link, nextPageLink, table, when } from './view.js';
import { registerWebhookDeliveryScreen } from './webhook-delivery.screen.js';

/**
 * Webhooks (CONTRACT §12): the store's webhooks, create, edit, disable, delete, "Send test", "Replay", and per
 * webhook its deliveries filtered by status; a delivery's page (webhook-delivery.screen.ts) shows each attempt
 * with "Retry". Everything goes through the API (api.ts): the same checks, limits and errors.
 */

const ListQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 200 })),
  cursor: Type.Optional(Type.String({ maxLength: 4000 })),
});
const DeliveriesQuery = Type.Object({
  status: Type.Optional(Type.Union([Type.Literal(''), Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')])),
  search: Type.Optional(Type.String({ maxLength: 200 })),
  cursor: Type.Optional(Type.String({ maxLength: 4000 })),
});
const WebhookForm = Type.Object({
  url: Type.String({ maxLength: 2048 }),
  events: Type.String({ maxLength: 2000 }),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
});
const EnabledForm = Type.Object({ enabled: Type.Union([Type.Literal('true'), Type.Literal('false')]) });
const ReplayForm = Type.Object({
  after: Type.Optional(Type.String({ maxLength: 64 })),
  since: Type.Optional(Type.String({ maxLength: 40 })),
});

/** "product.created, order.created" → the API's list ("*" alone for every type). */
const eventsOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((name) => name.trim())
    .filter(Boolean);

/** A datetime-local value (no zone) read as UTC, or an ISO time as it is. */
const instantOf = (text: string | undefined) => {
  const value = text?.trim();
  if (!value) return undefined;
  return /Z$|[+-]\d\d:\d\d$/.test(value) ? value : `${value}${value.length === 16 ? ':00' : ''}Z`;
};

function webhookForm(
  session: ConsoleSession,
  action: string,
  button: string,
  values: { url?: string; events?: string[]; description?: string | null },
) {
  return html`<form method="post" action="${action}" class="stack">!${csrfField(session)}
<div><label for="wh-url">URL</label><input id="wh-url" name="url" type="url" required value="${values.url ?? ''}" size="60"></div>
<div><label for="wh-events">Events</label><input id="wh-events" name="events" required value="${(values.events ?? ['*']).join(', ')}" size="60" aria-describedby="wh-events-help">
<span id="wh-events-help" class="muted">event types separated by commas (product.created, order.updated), or * for all</span></div>
<div><label for="wh-description">Description</label><input id="wh-description" name="description" value="${values.description ?? ''}" size="60"></div>
<button type="submit">${button}</button></form>`;
}

export function registerWebhooksScreen(router: ConsoleRouter, { api }: ScreenDeps): void {
  router.page('/webhooks', { querystring: ListQuery }, async ({ query, session }) => {
    const list = await api.get(session, '/webhooks', { search: query.search, cursor: query.cursor, limit: '25' });
    const rows = list.body.data.map((hook: { id: string; url: string; events: string[]; enabled: boolean; description: string | null }) => [
      link(`/console/webhooks/${hook.id}`, hook.url),
      hook.events.join(', '),
      hook.enabled ? 'enabled' : 'disabled',
      hook.description,
    ]);
    return {
      title: 'Webhooks',
      body: html`!${filterForm('/console/webhooks', [{ name: 'search', label: 'Search', value: query.search }])}
!${table('Webhooks', ['URL', 'Events', 'State', 'Description'], rows)}
!${nextPageLink('/console/webhooks', { search: query.search }, list.body.pagination.nextCursor)}
<h2>Create a webhook</h2>!${webhookForm(session, '/console/webhooks', 'Create webhook', {})}`,
    };
  });

  router.action('/webhooks', { body: WebhookForm }, async ({ body, session }) => {
    const created = await api.send(session, 'POST', '/webhooks', {
      url: body.url,
      events: eventsOf(body.events),
      ...(body.description ? { description: body.description } : {}),
    });
    const hook = created.body.data;
    return {
      title: 'Webhook created',
      nav: 'Webhooks',
      status: 201,
      body: html`<p role="status">The webhook for <strong>${hook.url}</strong> was created. Its signing secret is shown this once: keep it.</p>
<p><label for="secret">Signing secret</label><input id="secret" readonly size="60" value="${hook.secret}"></p>
<p>!${link(`/console/webhooks/${hook.id}`, 'Open the webhook').html}</p>`,
    };
  });

  router.page('/webhooks/:id', { params: IdParams, querystring: DeliveriesQuery }, async ({ params, query, session }) => {
    const hook = (await api.get(session, `/webhooks/${params.id}`)).body.data;
    const status = query.status || undefined;
    const list = await api.get(session, `/webhooks/${params.id}/deliveries`, {
      status,
      search: query.search,
      cursor: query.cursor,
      limit: '25',
    });
    const rows = list.body.data.map(
      (d: { id: string; type: string; status: string; attempts: number; lastResponseStatus: number | null; createdAt: string }) => [
        link(`/console/webhooks/${params.id}/deliveries/${d.id}`, when(d.createdAt)),
        d.type,
        d.status,
        d.attempts,
        d.lastResponseStatus,
      ],
    );
    const base = `/console/webhooks/${params.id}`;
    return {
      title: `Webhook ${hook.url}`,
      nav: 'Webhooks',
      body: html`!${facts([
        ['URL', hook.url],
        ['Events', hook.events.join(', ')],
        ['State', hook.enabled ? 'enabled' : 'disabled'],
        ['Description', hook.description],
        ['Created', when(hook.createdAt)],
      ])}
<div class="actions">
<form class="inline" method="post" action="${`${base}/test`}">!${csrfField(session)}<button type="submit">Send test</button></form>
<form class="inline" method="post" action="${`${base}/enabled`}">!${csrfField(session)}<input type="hidden" name="enabled" value="${hook.enabled ? 'false' : 'true'}"><button type="submit" class="secondary">${hook.enabled ? 'Disable' : 'Enable'}</button></form>
<form class="inline" method="post" action="${`${base}/delete`}">!${csrfField(session)}<button type="submit" class="secondary">Delete</button></form>
</div>
<h2>Deliveries</h2>
!${filterForm(base, [
        { name: 'status', label: 'Status', value: query.status, options: ['pending', 'succeeded', 'failed'] },
        { name: 'search', label: 'Search', value: query.search },
      ])}
!${table('Deliveries', ['Created', 'Event type', 'Status', 'Attempts', 'Last status'], rows)}
!${nextPageLink(base, { status, search: query.search }, list.body.pagination.nextCursor)}
<h2>Replay</h2>
<form method="post" action="${`${base}/replay`}" class="stack">!${csrfField(session)}
<p class="muted">Delivers the retained events again: after an event (its id), and/or since a time (UTC).</p>
<div><label for="replay-after">After event</label><input id="replay-after" name="after" size="30"></div>
<div><label for="replay-since">Since</label><input id="replay-since" name="since" type="datetime-local" step="1"></div>
<button type="submit">Replay</button></form>
<h2>Edit</h2>!${webhookForm(session, `${base}/edit`, 'Save', hook)}`,
    };
  });

  router.action('/webhooks/:id/edit', { params: IdParams, body: WebhookForm }, async ({ params, body, session }) => {
    await api.send(session, 'PATCH', `/webhooks/${params.id}`, {
      url: body.url,
      events: eventsOf(body.events),
      description: body.description || null,
    });
    return { redirect: `/console/webhooks/${params.id}` };
  });
  router.action('/webhooks/:id/enabled', { params: IdParams, body: EnabledForm }, async ({ params, body, session }) => {
    await api.send(session, 'PATCH', `/webhooks/${params.id}`, { enabled: body.enabled === 'true' });
    return { redirect: `/console/webhooks/${params.id}` };
  });
  router.action('/webhooks/:id/delete', { params: IdParams }, async ({ params, session }) => {
    await api.send(session, 'DELETE', `/webhooks/${params.id}`);
    return { redirect: '/console/webhooks' };
  });
  router.action('/webhooks/:id/test', { params: IdParams }, async ({ params, session }) => {
    const sent = (await api.send(session, 'POST', `/webhooks/${params.id}/test`)).body.data;
    return { redirect: `/console/webhooks/${params.id}/deliveries/${sent.id}` };
  });
  router.action('/webhooks/:id/replay', { params: IdParams, body: ReplayForm }, async ({ params, body, session }) => {
    const after = body.after?.trim() || undefined;
    const queued = await api.send(session, 'POST', `/webhooks/${params.id}/replay`, { after, since: instantOf(body.since) });
    return {
      title: 'Replay queued',
      nav: 'Webhooks',
      status: 202,
      body: html`<p role="status">${queued.body.data.queued} events will be delivered again.</p>
<p>!${link(`/console/webhooks/${params.id}`, 'Back to the webhook').html}</p>`,
    };
  });
  registerWebhookDeliveryScreen(router, api);
}
