import { html } from 'ghtml';
import { CollectionListQuery, listCollectionPage } from '../collections/index.js';
import { listProductPage } from '../products/index.js';
import { registerRecordScreen } from './records.js';
import type { ConsoleRouter } from './router.js';
import type { ScreenDeps } from './screen-deps.js';
import { type Cell, facts, link, table } from './view.js';

/**
 * Collections: where each sits in the tree (parent, children) and its first 50 members, newest first (the product
 * list filtered by the collection, manual or smart, without a total: a smart collection may hold the whole
 * catalog), with a link to all of them on the Products screen.
 */
export function registerCollectionsScreen(router: ConsoleRouter, { api, ctx }: ScreenDeps): void {
  registerRecordScreen(
    router,
    { api, db: ctx.db },
    {
      nav: 'Collections',
      resource: '/collections',
      apiQuery: CollectionListQuery,
      async page(db, storeId, query) {
        const { data, nextCursor, prevCursor } = await listCollectionPage(db, storeId, query);
        return { records: data, nextCursor, prevCursor };
      },
      columns: [
        { label: 'Title', value: (collection) => collection.title },
        { label: 'Handle', value: (collection) => collection.handle },
        { label: 'Type', value: (collection) => collection.collectionType },
        {
          label: 'Parent',
          value: (collection) =>
            collection.parentCollection
              ? link(`/console/collections/${encodeURIComponent(collection.parentCollection)}`, collection.parentCollection)
              : '',
        },
        { label: 'Updated', value: (collection) => collection.updatedAt },
      ],
      titleOf: (collection) => collection.title,
      async details(collection, _api, session) {
        const members = await listProductPage(ctx.db, session.storeId, { collection: collection.id, limit: 50, sort: '-createdAt' });
        const rows: Cell[][] = members.texts
          .map((text) => JSON.parse(text) as Record<string, string>)
          .map((product) => [link(`/console/products/${encodeURIComponent(product.id)}`, product.title), product.status, product.vendor]);
        const children = ((collection.childCollection ?? []) as (string | { id: string; title?: string })[]).map((child) =>
          typeof child === 'string' ? child : child.id,
        );
        return html`!${facts([
          ['Handle', collection.handle],
          ['Type', collection.collectionType],
          [
            'Parent',
            collection.parentCollection
              ? link(`/console/collections/${encodeURIComponent(collection.parentCollection)}`, collection.parentCollection)
              : 'none (top level)',
          ],
          ['Updated', collection.updatedAt],
        ])}<h2>Children</h2>!${children.length ? html`<ul>!${children.map((child) => html`<li><a href="/console/collections/${encodeURIComponent(child)}">${child}</a></li>`).join('')}</ul>` : html`<p class="muted">Children: none.</p>`}
<h2>Members</h2>!${table('Members', ['Product', 'Status', 'Vendor'], rows)}!${
          members.nextCursor ? html`<p><a href="/console/products?collection=${encodeURIComponent(collection.id)}">All members</a></p>` : ''
        }`;
      },
    },
  );
}
