import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { engine, useTestDatabase } from '../../../test/helpers.js';

// The same naming rules as PostgreSQL mode (prepared.test.ts), on PGlite's one session.
describe.runIf(engine === 'pglite')('prepared statements in the PGlite worker', () => {
  const opened = useTestDatabase();

  it('prepare statements with parameters, but not lists of parameters, patterns or parameterless ones', async () => {
    for (let n = 0; n < 2; n++) {
      expect(await opened.database.db.selectFrom('stores').select('id').where('slug', '=', 'p-one').execute()).toEqual([]);
      await opened.database.db.selectFrom('stores').select('id').where('slug', 'in', ['a-one', 'b-one']).execute();
      await opened.database.db.selectFrom('stores').select('id').where('slug', 'like', 'one%').execute();
      await sql`select 1 as one`.execute(opened.database.db);
    }
    const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements where name like 'sf\\_%'`.execute(
      opened.database.db,
    );
    const statements = prepared.rows.map((row) => row.statement).filter((text) => text.includes('"stores"'));
    expect(statements).toEqual([expect.stringMatching(/"slug" = \$1$/)]);
  });

  it('serialize values by the parameter types and parse rows as db.query did, on the first run and afterwards', async () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    for (let n = 0; n < 2; n++) {
      const { rows } = await sql<Record<string, unknown>>`select ${at}::timestamptz as at, ${JSON.stringify({ a: [1] })}::jsonb as doc,
        ${null}::text as none, ${42}::int + 1 as answer, ${'x'} || '' as text`.execute(opened.database.db);
      expect(rows).toEqual([{ at, doc: { a: [1] }, none: null, answer: 43, text: 'x' }]);
    }
  });

  it('keep the session usable after a failed statement, inside a transaction and out', async () => {
    const read = () => sql<{ one: number }>`select 1 / ${0}::int as one`.execute(opened.database.db);
    await expect(read()).rejects.toMatchObject({ code: '22012' });
    await expect(
      opened.database.db.transaction().execute(async (trx) => {
        await sql`select 1 / ${0}::int`.execute(trx);
      }),
    ).rejects.toMatchObject({ code: '22012' });
    await expect(sql`select nonsense from ${sql.raw('nowhere')} where id = ${1}`.execute(opened.database.db)).rejects.toMatchObject({
      code: '42P01',
    });
    expect((await sql<{ two: number }>`select ${2}::int as two`.execute(opened.database.db)).rows).toEqual([{ two: 2 }]);
  });

  it('fail once when a migration changes the result of a prepared statement, then run unprepared', async () => {
    await sql`create table prepared_change (id int primary key)`.execute(opened.database.db);
    const read = () => sql`select * from prepared_change where id = ${1}`.execute(opened.database.db);
    await read();
    await sql`alter table prepared_change add column note text`.execute(opened.database.db);
    await expect(read()).rejects.toMatchObject({ code: '0A000' });
    expect((await read()).rows).toEqual([]);
    await sql`alter table prepared_change add column other text`.execute(opened.database.db);
    expect((await read()).rows).toEqual([]);
  });
});
