import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathsWhere, REPO_ROOT, sourceFiles } from '../../test/support/source-files.js';

/**
 * "Every statement on a table is in its folder's `*.sql.ts`" (docs/architecture.md), as a rule that fails: a
 * query builder (`selectFrom`, `insertInto`, `updateTable`, `deleteFrom`), a clause added to one a `*.sql.ts`
 * returned (`where`, `orderBy`, a join, `forUpdate`, `onConflict`, `returning`) or a `sql` template anywhere
 * else in src/ is refused. `src/db/` (the engines, transaction control such as savepoints) and `src/shared/`
 * (the machinery every list, by-ids read, reference check and slot lease builds its statements with) are where
 * SQL is made for others.
 */
const SQL_MAKERS =
  /\.(selectFrom|insertInto|updateTable|deleteFrom|where|orderBy|innerJoin|leftJoin|forUpdate|onConflict|returning|returningAll)\(|\bsql(<[^>]*>)?`/;

/** Files outside the SQL places that build statements. */
function statementsOutsideSqlFiles(files: { path: string; text: string }[]): string[] {
  return pathsWhere(files, ({ path, text }) => !path.endsWith('.sql.ts') && !/^src\/(db|shared)\//.test(path) && SQL_MAKERS.test(text));
}

describe('where SQL is written', () => {
  it('finds a statement built outside a *.sql.ts file', () => {
    const found = statementsOutsideSqlFiles([
      { path: 'src/orders/orders.service.ts', text: "db.selectFrom('orders').selectAll()" },
      { path: 'src/orders/orders.routes.ts', text: 'await sql`SELECT 1`.execute(db)' },
      { path: 'src/orders/orders.checks.ts', text: "await selectOrders(db, storeId).where('id', '=', id).executeTakeFirst()" },
      { path: 'src/orders/orders.sql.ts', text: "db.deleteFrom('orders')" },
      { path: 'src/shared/list.ts', text: 'sql<number>`count(*)`' },
      { path: 'src/orders/money.ts', text: 'const total = lines.reduce((sum, line) => sum + line.price, 0);' },
    ]);
    expect(found).toEqual(['src/orders/orders.checks.ts', 'src/orders/orders.routes.ts', 'src/orders/orders.service.ts']);
  });

  it('keeps every statement of src/ in a *.sql.ts file', () => {
    const files = sourceFiles(join(REPO_ROOT, 'src'));
    expect(statementsOutsideSqlFiles(files), 'statements outside a *.sql.ts file').toEqual([]);
  });
});
