import { type RawBuilder, sql } from 'kysely';
import { validationError } from '../errors.js';
import { decodeCursor, type Keyset, type Position } from './list-cursor.js';
import type { ListParams, ListScope, ListSpec } from './list-spec.js';

/**
 * Where a list's page starts and in which order it walks: the sort's SQL and direction, the offset or the
 * cursor's position, what a cursor is bound to, and the keyed rows whose last or first position makes the
 * page's cursors (list-cursor.ts encodes and signs them).
 */

export interface ListOrder {
  expression: RawBuilder<unknown>;
  direction: RawBuilder<unknown>;
  descending: boolean;
  nullable: boolean;
}

export function orderOf(params: ListParams, spec: ListSpec): ListOrder {
  const descending = params.sort.startsWith('-');
  const key = descending ? params.sort.slice(1) : params.sort;
  const expression = Object.hasOwn(spec.sorts, key) ? spec.sorts[key] : undefined;
  // The query schema only admits declared keys, so a miss is a spec out of step with its schema.
  if (!expression) throw new Error(`list sort "${key}" has no SQL in its list spec`);
  const nullable = (spec.nullable ?? []).includes(key);
  return { expression, direction: descending ? sql`DESC` : sql`ASC`, descending, nullable };
}

/**
 * Where this request's page starts: an offset (`page`), or the position after the row a cursor names; walking
 * `backward` (a `before` cursor), "after" is in the list's reversed order, so the rows are those before it.
 */
export interface Walk {
  offset: number;
  after: Position | null;
  backward: boolean;
  /** what the page's cursor is bound to: the path with its ids, the sort, every filter and the limit */
  binding: string;
}

/** A `before` cursor is bound to its walk and its direction: neither kind of cursor passes for the other. */
export const backwardBinding = (binding: string) => `before ${binding}`;

function bindingOf(params: ListParams, spec: ListSpec, scope: ListScope): string {
  const query = Object.entries(params as unknown as Record<string, unknown>)
    .filter(([name, value]) => name !== 'page' && name !== 'cursor' && name !== 'before' && value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([spec.path, scope.within ?? [], query]);
}

export function walkOf(params: ListParams, spec: ListSpec, scope: ListScope): Walk {
  const binding = bindingOf(params, spec, scope);
  if (params.before !== undefined) {
    if (params.cursor !== undefined || params.page !== undefined) {
      throw validationError([
        { field: 'before', in: 'query', message: 'must not be sent with cursor or page: it says where the page ends' },
      ]);
    }
    return { offset: 0, after: decodeCursor(params.before, backwardBinding(binding), 'before'), backward: true, binding };
  }
  if (params.cursor === undefined) return { offset: ((params.page ?? 1) - 1) * params.limit, after: null, backward: false, binding };
  if (params.page !== undefined) {
    throw validationError([{ field: 'page', in: 'query', message: 'must not be sent with cursor: the cursor says where the page starts' }]);
  }
  return { offset: 0, after: decodeCursor(params.cursor, binding), backward: false, binding };
}

/** The rows of a page with the text of their sort value, `limit + 1` of them when there are more. */
export type KeyedRow<O> = O & { list_key: string | null };

/** The rows without the columns the list added (sort text, id, total). */
export const strip = <O>(rows: KeyedRow<O>[]): O[] =>
  rows.map(({ list_key, list_id, list_total, ...row }: KeyedRow<O> & { list_id?: string; list_total?: number }) => row as unknown as O);

export const positionOf = (row: KeyedRow<unknown>): Position => ({ key: row.list_key, id: idOf(row as object) });

/**
 * The list's order the other way round. PostgreSQL's default null placement (last ascending, first descending)
 * is its own mirror, so `ORDER BY key DESC, id DESC` is exactly `key ASC, id ASC` reversed, and rowsAfter walks it.
 */
export const reversed = (order: ListOrder): ListOrder => ({
  ...order,
  descending: !order.descending,
  direction: order.descending ? sql`ASC` : sql`DESC`,
});

const idOf = (row: object) => String((row as { list_id: unknown }).list_id);

export function keysetOf(order: ListOrder, id: RawBuilder<unknown>): Keyset {
  return { key: order.expression, id, descending: order.descending, nullable: order.nullable };
}
