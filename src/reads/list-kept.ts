import { type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { matchesOf } from './list-matched.js';
import type { ListParams, ListScope, ListSpec } from './list-spec.js';
import type { ListOrder, Walk } from './list-walk.js';
import type { AnchoredList } from './page-anchors.js';
import { type KeptSearches, keptOrSearchedPage, searchKey } from './search-cache.js';

/**
 * A list's way to what the app keeps in memory between requests, exact by the store's catalog version: the
 * anchors of a list without filters (page-anchors.ts) and a search's matches (search-cache.ts). list.ts decides
 * when a page may use them; these say under which key and with which statements.
 */

/** A page of a list without filters deep enough to start from an anchor: its anchors and its key in them (store, path, sort key). */
export function anchoringOf(
  scope: ListScope,
  spec: ListSpec,
  params: ListParams,
  walk: Walk,
  total: RawBuilder<number>,
): AnchoredList | undefined {
  const pages = scope.anchors;
  if (!pages || walk.offset < pages.cache.from) return undefined;
  // one walk serves a sort key in both directions
  const key = JSON.stringify([scope.storeId, spec.path, params.sort.replace(/^-/, '')]);
  return { pages, key, total, db: scope.db };
}

/** A search's page from its kept matches, else the search in full, kept (search-cache.ts). */
export function runKeptSearch<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  condition: Expression<SqlBool>,
  params: ListParams,
  spec: ListSpec,
  order: ListOrder,
  walk: Walk,
  scope: ListScope,
) {
  const kept = scope.searches as KeptSearches;
  const key = searchKey(scope.storeId, params.search as string, params.sort);
  // a kept page reads each row's sort key with it (the kept matches are ids only)
  const row = (id: RawBuilder<unknown>) =>
    base.where(sql<SqlBool>`${spec.idColumn} = ${id}`).select(sql<string | null>`(${order.expression})::text`.as('list_key'));
  const take = params.limit + 1;
  const matches = matchesOf(base, condition, spec, order);
  return keptOrSearchedPage({ db: scope.db, kept, key, matches, row, direction: order.direction }, { offset: walk.offset, take });
}
