import { type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { isId } from '../shared/index.js';

/**
 * The by-ids read every resource's batch read is built on (an export's chunk, the records a write noted for
 * the feed, a page's products without a current document): the rows of `query` (the resource's read, already
 * scoped to its store) whose `column` is among `ids`, in one statement, in the order of `ids`. Each id is read
 * once; one that is not an id, or names no record of the store, is skipped, so a caller need not check ids.
 */
export async function selectByIds<DB, TB extends keyof DB, Row extends { id: string }>(
  query: SelectQueryBuilder<DB, TB, Row>,
  ids: readonly string[],
  column = 'id',
): Promise<Row[]> {
  const wanted = [...new Set(ids.filter(isId))];
  if (wanted.length === 0) return [];
  const rows: Row[] = await query.where(sql<SqlBool>`${sql.ref(column)} in (${sql.join(wanted)})`).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return wanted.flatMap((id) => byId.get(id) ?? []);
}
