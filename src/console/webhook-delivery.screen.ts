import { Type } from '@sinclair/typebox';
import { html } from 'ghtml';
import { ID_PATTERN } from '../shared/index.js';
import type { ConsoleApi } from './api.js';
import { csrfField } from './layout.js';
import type { ConsoleRouter } from './router.js';
import type { ConsoleSession } from './sessions.js';
import { facts, link, table, when } from './view.js';

/**
 * A webhook delivery: each attempt (time, duration, response status, the first 4 KB of the answer, the error)
 * from GET /webhooks/{id}/deliveries/{deliveryId}, and "Retry". While the delivery is pending, its section
 * reloads itself every second through htmx (hx-select picks it out of this same page), so a retry turns
 * green without reloading; without JavaScript, the page is the same and a reload shows the news.
 */

const DeliveryParams = Type.Object({
  id: Type.String({ pattern: ID_PATTERN }),
  deliveryId: Type.String({ pattern: ID_PATTERN }),
});

interface Attempt {
  attempt: number;
  startedAt: string;
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
}

const statusClass = (status: string) => (status === 'succeeded' ? 'ok' : status === 'failed' ? 'error' : 'muted');

function deliverySection(session: ConsoleSession, path: string, delivery: { status: string; attempts: number; attemptLog: Attempt[] }) {
  const rows = delivery.attemptLog.map((a) => [
    a.attempt,
    when(a.startedAt),
    `${a.durationMs} ms`,
    a.responseStatus ?? 'no answer',
    { html: html`<pre class="body">${a.responseBody ?? ''}</pre>` },
    a.error,
  ]);
  // pending: this section fetches the page again every second and takes its own new version from it
  const live = delivery.status === 'pending' ? html` hx-get="${path}" hx-trigger="every 1s" hx-select="#delivery" hx-swap="outerHTML"` : '';
  return html`<section id="delivery" aria-live="polite"!${live}>
<p>Status: <strong class="${statusClass(delivery.status)}" data-status="${delivery.status}">${delivery.status}</strong> after ${delivery.attempts} attempts</p>
<form method="post" action="${`${path}/retry`}" hx-post="${`${path}/retry`}" hx-target="#delivery" hx-select="#delivery" hx-swap="outerHTML">!${csrfField(session)}<button type="submit">Retry</button></form>
!${table('Attempts', ['Attempt', 'Sent', 'Duration', 'Response status', 'Response body (first 4 KB)', 'Error'], rows)}
</section>`;
}

export function registerWebhookDeliveryScreen(router: ConsoleRouter, api: ConsoleApi): void {
  router.page('/webhooks/:id/deliveries/:deliveryId', { params: DeliveryParams }, async ({ params, session }) => {
    const delivery = (await api.get(session, `/webhooks/${params.id}/deliveries/${params.deliveryId}`)).body.data;
    const path = `/console/webhooks/${params.id}/deliveries/${params.deliveryId}`;
    return {
      title: `Delivery of ${delivery.type}`,
      nav: 'Webhooks',
      body: html`<p>!${link(`/console/webhooks/${params.id}`, 'Back to the webhook').html}</p>
!${facts([
        ['Event', delivery.eventId],
        ['Type', delivery.type],
        ['Created', when(delivery.createdAt)],
        ['Next attempt', when(delivery.nextAttemptAt)],
      ])}
!${deliverySection(session, path, delivery)}
<h2>Payload</h2><pre class="json" tabindex="0" aria-label="Payload">${delivery.payload}</pre>`,
    };
  });
  router.action('/webhooks/:id/deliveries/:deliveryId/retry', { params: DeliveryParams }, async ({ params, session }) => {
    await api.send(session, 'POST', `/webhooks/${params.id}/deliveries/${params.deliveryId}/retry`);
    return { redirect: `/console/webhooks/${params.id}/deliveries/${params.deliveryId}` };
  });
}
