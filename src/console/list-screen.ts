import { type TObject, type TSchema, Type } from '@sinclair/typebox';
import type { Db } from '../db/index.js';
import type { NavName } from './layout.js';
import type { ConsoleRouter } from './router.js';
import { type Cell, filterForm, link, pageLinks, table } from './view.js';

/**
 * A console list (Products, Collections, Customers, Orders): the API list's search and filters, validated by
 * the API list query's own schemas, and pages by cursor both ways without a total — the resource's
 * `list…Page` (runListPage of src/reads: no count of any kind, "Previous page" by the same index walked
 * backward), so a page costs the same at a million records as at a thousand (CONTRACT §12). A row per
 * record, its first cell a link to the record's page; each record as the API sends it.
 */

// biome-ignore lint/suspicious/noExplicitAny: the API's records, read field by field
export type ApiRecord = any;

/** A page of a resource's list: the API's query in (limit, sort, filters, cursor or before), records out. */
export type ListPage = (
  db: Db,
  storeId: string,
  // biome-ignore lint/suspicious/noExplicitAny: each resource's own list query type, built from its schema's fields
  query: any,
) => Promise<{ records: ApiRecord[]; nextCursor: string | null; prevCursor: string | null }>;

export interface ListScreen {
  nav: NavName;
  /** the API's collection path, e.g. "/customers"; the console's is "/console" + it */
  resource: string;
  /** the API list's query schema: the console's search and filters are validated by its fields */
  apiQuery: TObject;
  /** the list's filters beyond "Search" (names of the API list's query), with their labels and choices */
  filters?: { name: string; label: string; options?: string[] }[];
  columns: { label: string; value: (record: ApiRecord) => Cell }[];
  page: ListPage;
}

const PAGE_SIZE = 50;

/**
 * The list's query string: the API's `search` and filters (an empty form field is no filter, so '' is
 * accepted too), and where the page starts (`cursor`) or ends (`before`).
 */
function listQuery(screen: ListScreen): TObject {
  const api = screen.apiQuery.properties as Record<string, TSchema>;
  const field = (name: string) => Type.Optional(Type.Union([Type.Literal(''), { ...api[name] }]));
  const filters = (screen.filters ?? []).map((filter) => [filter.name, field(filter.name)]);
  return Type.Object({ search: field('search'), cursor: api.cursor, before: api.cursor, ...Object.fromEntries(filters) });
}

export function registerListScreen(router: ConsoleRouter, db: Db, screen: ListScreen): void {
  const path = `/console${screen.resource}`;
  router.page(screen.resource, { querystring: listQuery(screen) }, async ({ query, session }) => {
    const filters = query as Record<string, string | undefined>;
    const given = Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== '' && value !== undefined));
    const page = await screen.page(db, session.storeId, { ...given, limit: PAGE_SIZE, sort: '-createdAt' });
    const rows: Cell[][] = page.records.map((record) =>
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
    return { title: screen.nav, body: `${form}${list}${pageLinks(path, filters, page)}` };
  });
}
