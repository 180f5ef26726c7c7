import { html } from 'ghtml';
import type { ConsoleAssets } from './assets.js';
import type { ConsoleSession } from './sessions.js';

/**
 * The page around every screen. Templates use ghtml's `html` tag: every `${value}` is HTML-escaped
 * (quotes too, so attribute values are safe); only `!${value}` is inserted as it is, and that is kept for
 * markup the `html` tag itself produced (docs/decisions.md, "Console escaping").
 */

/** The navigation bar: link names are CONTRACT §12's; a colleague adding a screen serves its path. */
export const NAV = [
  { name: 'Overview', path: '/console' },
  { name: 'Products', path: '/console/products' },
  { name: 'Collections', path: '/console/collections' },
  { name: 'Customers', path: '/console/customers' },
  { name: 'Orders', path: '/console/orders' },
  { name: 'Imports', path: '/console/imports' },
  { name: 'Exports', path: '/console/exports' },
  { name: 'Events', path: '/console/events' },
  { name: 'Webhooks', path: '/console/webhooks' },
  { name: 'API keys', path: '/console/api-keys' },
  { name: 'Requests', path: '/console/requests' },
] as const;

export type NavName = (typeof NAV)[number]['name'];

/** What a screen answers: its title (the page's h1 and <title>) and the markup of its main part. */
export interface Page {
  title: string;
  /** markup made with `html` (already escaped) */
  body: string;
  /** the navigation entry to mark as current; the screen's own by default */
  nav?: NavName;
  status?: number;
}

// htmx without eval, inline styles or script tags in swapped content, and only to this origin: what the CSP allows anyway.
const HTMX_CONFIG = JSON.stringify({
  includeIndicatorStyles: false,
  allowEval: false,
  allowScriptTags: false,
  selfRequestsOnly: true,
  historyCacheSize: 0,
});

function head(assets: ConsoleAssets, title: string): string {
  return html`<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="htmx-config" content="${HTMX_CONFIG}">
<title>${title} · Storefront console</title>
<link rel="stylesheet" href="${assets.stylePath}">
<script src="${assets.scriptPath}" defer></script>
</head>`;
}

function navigation(current: NavName | undefined): string {
  const links = NAV.map(
    (entry) => html`<li><a href="${entry.path}"!${entry.name === current ? ' aria-current="page"' : ''}>${entry.name}</a></li>`,
  );
  return html`<nav class="main" aria-label="Console"><ul>!${links.join('')}</ul></nav>`;
}

/** A hidden field carrying the session's CSRF token: every POST form includes it. */
export const csrfField = (session: ConsoleSession) => html`<input type="hidden" name="_csrf" value="${session.csrf}">`;

/** A signed-in page: navigation, who is signed in, "Sign out", the screen. */
export function renderPage(assets: ConsoleAssets, session: ConsoleSession, page: Page): string {
  // htmx sends the CSRF token as a header on every request it makes (hx-headers is inherited).
  const htmxHeaders = JSON.stringify({ 'X-CSRF-Token': session.csrf });
  return html`<!doctype html>
<html lang="en">
!${head(assets, page.title)}
<body hx-headers="${htmxHeaders}">
<header class="top">
<span class="brand">Storefront</span>
!${navigation(page.nav)}
<span class="who">${session.storeName} · ${session.email}</span>
<form class="inline" method="post" action="/console/logout">!${csrfField(session)}<button type="submit" class="secondary">Sign out</button></form>
</header>
<main id="main">
<h1>${page.title}</h1>
!${page.body}
</main>
</body>
</html>
`;
}

/** A page without a session: sign-in, errors before sign-in. */
export function renderBarePage(assets: ConsoleAssets, title: string, body: string): string {
  return html`<!doctype html>
<html lang="en">
!${head(assets, title)}
<body>
<main id="main">
!${body}
</main>
</body>
</html>
`;
}
