import { type TObject, Type } from '@sinclair/typebox';
import type { ConsoleApi } from './api.js';
import type { NavName } from './layout.js';
import type { ConsoleRouter } from './router.js';
import type { ConsoleSession } from './sessions.js';
import { type Cell, filterForm, jsonBlock, link, nextPageLink, table } from './view.js';

/**
 * A list screen and a page per record over one API resource (customers, orders, collections): the list is
 * the API's (cursor paging, its filters, the search box), the page shows its parts and the record's JSON
 * as GET /<resource>/{id} sends it. Each screen says which columns and parts it shows.
 */

// biome-ignore lint/suspicious/noExplicitAny: the API's records, read field by field
export type ApiRecord = any;

export interface RecordScreen {
  nav: NavName;
  /** the API's collection path, e.g. "/customers"; the console's is "/console" + it */
  resource: string;
  /** the list's filters beyond "Search" (query names of the API list), with their labels */
  filters?: { name: string; label: string; options?: string[] }[];
  columns: { label: string; value: (record: ApiRecord) => Cell }[];
  titleOf: (record: ApiRecord) => string;
  /** the record page's parts above its JSON (markup made with `html`) */
  details: (record: ApiRecord, api: ConsoleApi, session: ConsoleSession) => Promise<string>;
}

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const PAGE_SIZE = '50';

function listQuery(screen: RecordScreen): TObject {
  const names = ['search', 'cursor', ...(screen.filters ?? []).map((filter) => filter.name)];
  return Type.Object(Object.fromEntries(names.map((name) => [name, Type.Optional(Type.String({ maxLength: 1000 }))])));
}

export function registerRecordScreen(router: ConsoleRouter, api: ConsoleApi, screen: RecordScreen): void {
  const path = `/console${screen.resource}`;
  router.page(screen.resource, { querystring: listQuery(screen) }, async ({ query, session }) => {
    const filters = query as Record<string, string | undefined>;
    const answer = await api.get(session, screen.resource, { ...filters, limit: PAGE_SIZE });
    const rows: Cell[][] = (answer.body.data as ApiRecord[]).map((record) =>
      screen.columns.map((column, index) =>
        index === 0 ? link(`${path}/${encodeURIComponent(record.id)}`, String(column.value(record) || record.id)) : column.value(record),
      ),
    );
    const form = filterForm(path, [
      { name: 'search', label: 'Search', value: filters.search },
      ...(screen.filters ?? []).map((filter) => ({ ...filter, value: filters[filter.name] })),
    ]);
    const list = table(
      screen.nav,
      screen.columns.map((column) => column.label),
      rows,
    );
    return { title: screen.nav, body: `${form}${list}${nextPageLink(path, filters, answer.body.pagination?.nextCursor)}` };
  });
  router.page(`${screen.resource}/:id`, { params: IdParams }, async ({ params, session }) => {
    const answer = await api.get(session, `${screen.resource}/${encodeURIComponent(params.id)}`);
    const record = answer.body.data;
    const details = await screen.details(record, api, session);
    return { title: screen.titleOf(record) || record.id, nav: screen.nav, body: `${details}${jsonBlock('API JSON', answer.text)}` };
  });
}
