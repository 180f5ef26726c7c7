import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathsWhere, REPO_ROOT, sourceFiles } from '../../test/support/source-files.js';

/**
 * "Every statement on a table is in its folder's `*.sql.ts`" (docs/architecture.md), as a rule that fails: a
 * query builder (`selectFrom`, `insertInto`, `updateTable`, `deleteFrom`), a clause added to one a `*.sql.ts`
 * returned (`where`, `orderBy`, a join, `forUpdate`, `onConflict`, `returning`) or a `sql` template anywhere
 * else in src/ is refused, except in the files named below: the machinery that makes SQL for others.
 */
const SQL_MAKERS =
  /\.(selectFrom|insertInto|updateTable|deleteFrom|where|orderBy|innerJoin|leftJoin|forUpdate|onConflict|returning|returningAll)\(|\bsql(<[^>]*>)?`/;

/** The files that build statements for others, each with what it builds; a new one is added here, named. */
const SQL_MACHINERY: Record<string, string> = {
  'src/db/database.ts': 'the engines: session settings of a new connection',
  'src/db/migrate.ts': 'the migration runner and its bookkeeping table',
  'src/db/savepoint.ts': 'transaction control: SAVEPOINT, ROLLBACK TO, RELEASE',
  'src/db/statements/stats-keeper.ts': 'ANALYZE of a table whose row count doubled',
  'src/reads/list.ts': 'every list: the plan choice, `updatedSince`, the search and narrowing conditions',
  'src/reads/list-spec.ts': "the list contract: a search's ILIKE over named columns",
  'src/reads/list-walk.ts': "a list's order and its reverse",
  'src/reads/list-indexed.ts': "a list's page through its sort index: by offset, after a cursor, its total",
  'src/reads/list-matched.ts': 'a searched or narrowed list: its matches, their count and the page',
  'src/reads/list-kept.ts': "a search's matches and rows by id for the kept searches",
  'src/reads/list-cursor.ts': 'the keyset condition "rows after this position"',
  'src/reads/list-counts.ts': 'exact totals read from the counters',
  'src/reads/far-end.ts': "a deep page's walk from the nearer end, over the total its statement read",
  'src/reads/list-pages.ts': "pages by number, one or a batch of them, in the statement that reads the list's total",
  'src/reads/by-ids.ts': 'the by-ids read under every batch read',
  'src/reads/page-anchors.ts': "a list's page anchors: the walk of the list and the page read after an anchor, with the catalog version",
  'src/reads/search-cache.ts': "a search's kept matches: the page read by id with the catalog version",
  'src/reads/stored-documents.ts': 'stored documents: the read, the list subquery, the upsert, the rebuild',
  'src/shared/references.ts': 'reference checks and record locks across resources',
  'src/shared/custom-fields.ts': 'the key-by-key merge of custom fields under a row lock',
  'src/shared/store-slots.ts': 'per-store slots leased across processes',
};

/** Files outside the SQL places that build statements. */
function statementsOutsideSqlFiles(files: { path: string; text: string }[]): string[] {
  return pathsWhere(files, ({ path, text }) => !path.endsWith('.sql.ts') && !(path in SQL_MACHINERY) && SQL_MAKERS.test(text));
}

describe('where SQL is written', () => {
  it('finds a statement built outside a *.sql.ts file', () => {
    const found = statementsOutsideSqlFiles([
      { path: 'src/orders/orders.service.ts', text: "db.selectFrom('orders').selectAll()" },
      { path: 'src/orders/orders.routes.ts', text: 'await sql`SELECT 1`.execute(db)' },
      { path: 'src/orders/orders.checks.ts', text: "await selectOrders(db, storeId).where('id', '=', id).executeTakeFirst()" },
      { path: 'src/orders/orders.sql.ts', text: "db.deleteFrom('orders')" },
      { path: 'src/reads/list.ts', text: 'sql<number>`count(*)`' },
      { path: 'src/reads/helpers.ts', text: 'sql<number>`count(*)`' },
      { path: 'src/db/pool.ts', text: 'await sql`SET x = 1`.execute(db)' },
      { path: 'src/orders/money.ts', text: 'const total = lines.reduce((sum, line) => sum + line.price, 0);' },
    ]);
    expect(found).toEqual([
      'src/db/pool.ts',
      'src/orders/orders.checks.ts',
      'src/orders/orders.routes.ts',
      'src/orders/orders.service.ts',
      'src/reads/helpers.ts',
    ]);
  });

  it('keeps every statement of src/ in a *.sql.ts file or a named piece of machinery', () => {
    const files = sourceFiles(join(REPO_ROOT, 'src'));
    expect(statementsOutsideSqlFiles(files), 'statements outside a *.sql.ts file').toEqual([]);
  });

  it('names only machinery files that exist and still build statements', () => {
    const files = new Map(sourceFiles(join(REPO_ROOT, 'src')).map((file) => [file.path, file.text]));
    const stale = Object.keys(SQL_MACHINERY).filter((path) => !SQL_MAKERS.test(files.get(path) ?? ''));
    expect(stale, 'exempt files that no longer build SQL').toEqual([]);
  });
});
