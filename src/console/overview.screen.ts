import { html } from 'ghtml';
import type { ConsoleApi } from './api.js';
import { countVariantsCapped, failingWebhooks, newestEventAt, VARIANT_COUNT_CAP } from './overview.sql.js';
import type { ConsoleRouter } from './router.js';
import type { ScreenDeps } from './screen-deps.js';
import type { ConsoleSession } from './sessions.js';
import { type Cell, table } from './view.js';

/**
 * Overview: the store at a glance, every figure cheap at any size. Record counts are the API lists' exact
 * totals (kept by counters, no count of rows); variants are counted up to a cap.
 */

const COUNTED = [
  ['Products', '/products'],
  ['Collections', '/collections'],
  ['Customers', '/customers'],
  ['Orders', '/orders'],
] as const;

async function totalOf(api: ConsoleApi, session: ConsoleSession, path: string): Promise<number> {
  return (await api.get(session, path, { limit: '1' })).body.pagination.total as number;
}

function ageText(at: Date | null): string {
  if (!at) return 'no events yet';
  const seconds = Math.max(0, Math.round((Date.now() - at.getTime()) / 1000));
  if (seconds < 120) return `${seconds} seconds ago`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} minutes ago`;
  return `${Math.round(seconds / 3600)} hours ago`;
}

const card = (label: string, value: string | number) => html`<div class="card"><div>${label}</div><div class="value">${value}</div></div>`;

// biome-ignore lint/suspicious/noExplicitAny: the API's jobs, read field by field
const jobRow = (job: any): Cell[] => [job.kind ?? job.type, job.resource, job.status, job.createdAt, job.finishedAt ?? job.updatedAt];

export function registerOverviewScreen(router: ConsoleRouter, { api, ctx }: ScreenDeps): void {
  router.page('', {}, async ({ session }) => {
    const [totals, variants, newest, running, recent, failing] = await Promise.all([
      Promise.all(COUNTED.map(([, path]) => totalOf(api, session, path))),
      countVariantsCapped(ctx.db, session.storeId),
      newestEventAt(ctx.db, session.storeId),
      api.get(session, '/jobs', { status: 'running', limit: '20' }),
      api.get(session, '/jobs', { limit: '5' }),
      failingWebhooks(ctx.db, session.storeId),
    ]);
    const cards = [
      card('Products', totals[0]),
      card('Variants', variants > VARIANT_COUNT_CAP ? `more than ${VARIANT_COUNT_CAP}` : variants),
      ...COUNTED.slice(1).map(([label], index) => card(label, totals[index + 1])),
      card('Newest event', ageText(newest)),
    ];
    const jobHeaders = ['Job', 'Resource', 'Status', 'Started', 'Updated'];
    const body = html`<section aria-label="Counts" class="cards">!${cards.join('')}</section>
<h2>Imports and exports running</h2>!${table('Imports and exports running', jobHeaders, running.body.data.map(jobRow))}
<h2>Last five jobs</h2>!${table('Last five jobs', jobHeaders, recent.body.data.map(jobRow))}
<h2>Webhooks with failing deliveries (last 24 hours)</h2>!${table(
      'Webhooks with failing deliveries',
      ['Webhook', 'Failing deliveries', 'Last'],
      failing.map((webhook) => [webhook.url, Number(webhook.failing), String(webhook.lastAt ?? '')]),
    )}`;
    return { title: 'Overview', body };
  });
}
