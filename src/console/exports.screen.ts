import { Type } from '@sinclair/typebox';
import { html } from 'ghtml';
import { invalidField } from '../errors.js';
import type { ConsoleRouter } from './router.js';
import type { ScreenDeps } from './screen-deps.js';

/**
 * Exports (CONTRACT §12): a resource and a format (NDJSON, or Shopify's CSV for products, customers and
 * orders), "Export", and the file downloads as GET /exports/{resource} streams it through the API (api.ts
 * `download`): the same snapshot, limits (4 open exports per store) and layout as the API's.
 */

const RESOURCES = ['products', 'collections', 'attributes', 'attributeSets', 'customers', 'orders'] as const;
const SHOPIFY = new Set(['products', 'customers', 'orders']);
const ExportQuery = Type.Object({
  resource: Type.Union(RESOURCES.map((resource) => Type.Literal(resource))),
  format: Type.Union([Type.Literal('ndjson'), Type.Literal('shopify')]),
});

export function registerExportsScreen(router: ConsoleRouter, { api }: ScreenDeps): void {
  router.page('/exports', {}, async () => {
    const resources = RESOURCES.map((resource) => html`<option value="${resource}">${resource}</option>`).join('');
    return {
      title: 'Exports',
      body: html`<p>Download the store's records: NDJSON (one record per line, as the API returns it, importable into any store) or
Shopify's CSV (products, customers, orders), from one consistent snapshot.</p>
<form method="get" action="/console/exports/file" class="stack">
<div><label for="export-resource">Resource</label><select id="export-resource" name="resource">!${resources}</select></div>
<div><label for="export-format">Format</label><select id="export-format" name="format"><option value="ndjson">NDJSON</option><option value="shopify">Shopify CSV</option></select></div>
<button type="submit">Export</button></form>`,
    };
  });
  router.download('/exports/file', { querystring: ExportQuery }, async ({ query, session }) => {
    if (query.format === 'shopify' && !SHOPIFY.has(query.resource)) {
      throw invalidField('format', `Shopify's CSV holds ${[...SHOPIFY].join(', ')}: export ${query.resource} as NDJSON`, 'query');
    }
    const file = await api.download(session, `/exports/${query.resource}${query.format === 'shopify' ? '?format=shopify' : ''}`);
    // NDJSON comes without a file name from the API: the browser saves it under one
    const disposition = file.headers['content-disposition'] ?? `attachment; filename="${query.resource}.ndjson"`;
    return { headers: { ...file.headers, 'content-disposition': disposition }, stream: file.stream };
  });
}
