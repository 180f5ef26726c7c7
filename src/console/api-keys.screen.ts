import { Type } from '@sinclair/typebox';
import { html } from 'ghtml';
import { ALL_SCOPES } from '../shared/index.js';
import type { ConsoleApi } from './api.js';
import { csrfField } from './layout.js';
import type { ConsoleRouter } from './router.js';
import type { ScreenDeps } from './screen-deps.js';
import type { ConsoleSession } from './sessions.js';
import { filterForm, table } from './view.js';

/** API keys through GET/POST/DELETE /api-keys: the list, "Create key" (the key shown once), "Revoke". */

const CreateForm = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  scopes: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Array(Type.String({ maxLength: 64 }), { maxItems: 40 })])),
});
const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const ListQuery = Type.Object({ search: Type.Optional(Type.String({ maxLength: 200 })) });

interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

function createForm(session: ConsoleSession): string {
  const boxes = ALL_SCOPES.map(
    (scope, index) =>
      html`<label class="inline"><input type="checkbox" name="scopes" value="${scope}" id="scope-${index}"> ${scope}</label>`,
  ).join('');
  return html`<h2>New key</h2><form method="post" action="/console/api-keys">!${csrfField(session)}
<div><label for="key-name">Name</label><input id="key-name" name="name" required maxlength="100"></div>
<fieldset><legend>Scopes</legend>!${boxes}</fieldset>
<button type="submit">Create key</button></form>`;
}

/** Keys whose name, prefix or a scope holds `search` (any case). GET /api-keys answers a store's keys whole. */
function matching(keys: ApiKey[], search: string | undefined): ApiKey[] {
  const term = search?.trim().toLowerCase();
  if (!term) return keys;
  return keys.filter((key) => [key.name, key.prefix, ...key.scopes].some((text) => text.toLowerCase().includes(term)));
}

async function keysPage(api: ConsoleApi, session: ConsoleSession, shown?: { name: string; key: string }, search?: string) {
  const keys = matching((await api.get(session, '/api-keys')).body.data as ApiKey[], search);
  const rows = keys.map((key) => [
    key.name,
    `${key.prefix}…`,
    key.scopes.join(', '),
    key.createdAt,
    key.lastUsedAt ?? 'never',
    // a revoked key stays listed (GET /api-keys keeps it) with when it ended, and nothing left to revoke
    key.revokedAt
      ? `revoked ${key.revokedAt}`
      : {
          html: html`<form class="inline" method="post" action="/console/api-keys/${key.id}/revoke">!${csrfField(session)}<button type="submit" class="secondary">Revoke</button></form>`,
        },
  ]);
  const once = shown
    ? html`<section class="card" role="status" aria-label="New key"><p>The key <strong>${shown.name}</strong>, shown this once: copy it now.</p><pre class="json" tabindex="0">${shown.key}</pre></section>`
    : '';
  return {
    title: 'API keys',
    nav: 'API keys' as const,
    body: `${once}${filterForm('/console/api-keys', [{ name: 'search', label: 'Search', value: search }])}${table('API keys', ['Name', 'Key', 'Scopes', 'Created', 'Last used', 'Revoke'], rows)}<p class="muted">Last used: recorded by each server process at most once a minute.</p>${createForm(session)}`,
  };
}

export function registerApiKeysScreen(router: ConsoleRouter, { api }: ScreenDeps): void {
  router.page('/api-keys', { querystring: ListQuery }, async ({ query, session }) => keysPage(api, session, undefined, query.search));
  router.action('/api-keys', { body: CreateForm }, async ({ body, session }) => {
    const scopes = [body.scopes ?? []].flat();
    const created = (await api.send(session, 'POST', '/api-keys', { name: body.name, scopes })).body.data as { name: string; key: string };
    return keysPage(api, session, created);
  });
  router.action('/api-keys/:id/revoke', { params: IdParams }, async ({ params, session }) => {
    await api.send(session, 'DELETE', `/api-keys/${encodeURIComponent(params.id)}`);
    return { redirect: '/console/api-keys' };
  });
}
