import type { SelectQueryBuilder } from 'kysely';
import { readList } from './list.js';
import { encodeCursor } from './list-cursor.js';
import type { ListParams, ListScope, ListSpec } from './list-spec.js';
import { backwardBinding, positionOf, strip } from './list-walk.js';

/**
 * The same page without its total: no count of any kind, so a filtered or searched page costs what finding
 * its rows costs, at any size of the store (the console's lists, CONTRACT §12; the API's lists keep their
 * exact totals, CONTRACT §5). `nextCursor` as runList's: a cursor of either reads on in the other. `prevCursor`,
 * passed back as `before`, reads the page before this one by the same index walked the other way (no offset,
 * no count): the rows before its position in the reversed order, put back in the list's order.
 */
export async function runListPage<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  params: ListParams,
  spec: ListSpec,
  scope: ListScope,
): Promise<{ rows: O[]; nextCursor: string | null; prevCursor: string | null }> {
  const { rows, walk } = await readList(base, params, spec, scope, false);
  const more = rows.length > params.limit;
  const page = rows.slice(0, params.limit);
  if (walk.backward) page.reverse();
  const [first, last] = [page[0], page.at(-1)];
  // backward, the page we came from follows this one; forward by a cursor, a page precedes it
  const hasNext = walk.backward ? true : more;
  const hasPrev = walk.backward ? more : walk.after !== null;
  return {
    rows: strip(page),
    nextCursor: hasNext && last ? encodeCursor(positionOf(last), walk.binding) : null,
    prevCursor: hasPrev && first ? encodeCursor(positionOf(first), backwardBinding(walk.binding)) : null,
  };
}
