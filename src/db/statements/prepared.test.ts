import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { engine, testDatabaseUrl } from '../../../test/helpers.js';
import { openDatabase } from '../database.js';
import { withGenericPlan } from './generic-plan.js';

/** One connection, so the statements run and pg_prepared_statements are of the same session. */
async function openOneConnection() {
  return openDatabase({ databaseUrl: testDatabaseUrl(), dataDir: '', poolSize: 1 });
}

describe.runIf(engine === 'postgres')('named prepared statements (PostgreSQL)', () => {
  it('prepare statements with parameters, but not lists of parameters, unmarked patterns or parameterless ones', async () => {
    const database = await openOneConnection();
    try {
      const marker = randomBytes(4).toString('hex');
      for (let n = 0; n < 2; n++) {
        await database.db.selectFrom('stores').select('id').where('slug', '=', `p-${marker}`).execute();
        await database.db
          .selectFrom('stores')
          .select('id')
          .where('slug', 'in', [`a-${marker}`, `b-${marker}`])
          .execute();
        await database.db.selectFrom('stores').select('id').where('slug', 'like', `${marker}%`).execute();
        // a pattern marked for its generic plan (a search whose indexes pay for any term) is prepared
        await withGenericPlan(database.db.selectFrom('stores').select('id').where('name', 'ilike', `${marker}%`)).execute();
        await sql`select 1 as one`.execute(database.db);
      }
      const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements where name like 'sf\\_%'`.execute(
        database.db,
      );
      const statements = prepared.rows.map((row) => row.statement).filter((text) => text.includes('"stores"'));
      expect(statements).toHaveLength(2);
      expect(statements).toEqual(
        expect.arrayContaining([expect.stringMatching(/"name" ilike \$1$/), expect.stringMatching(/"slug" = \$1$/)]),
      );
    } finally {
      await database.close();
    }
  });

  it('fail once when a migration changes the result of a prepared statement, then run unprepared', async () => {
    const database = await openOneConnection();
    const table = `prepared_${randomBytes(4).toString('hex')}`;
    try {
      await sql`create table ${sql.table(table)} (id int primary key)`.execute(database.db);
      const read = () => sql`select * from ${sql.table(table)} where id = ${1}`.execute(database.db);
      await read();
      await sql`alter table ${sql.table(table)} add column note text`.execute(database.db);
      await expect(read()).rejects.toMatchObject({ code: '0A000' });
      expect((await read()).rows).toEqual([]);
    } finally {
      await sql`drop table if exists ${sql.table(table)}`.execute(database.db);
      await database.close();
    }
  });
});

describe.runIf(engine === 'postgres')("a transaction's first statement with its BEGIN (PostgreSQL)", () => {
  it('runs as EXECUTE of the prepared statement once the session has prepared it', async () => {
    const database = await openOneConnection();
    try {
      const slug = `first-${randomBytes(4).toString('hex')}`;
      for (let n = 0; n < 3; n++) {
        await database.db.transaction().execute(async (trx) => {
          expect(await trx.selectFrom('stores').select('id').where('slug', '=', slug).execute()).toEqual([]);
        });
      }
      // plans made from the session's prepared statement: the first run prepared it, the next two executed it
      const runs = await sql<{ n: number }>`select (generic_plans + custom_plans)::int as n from pg_prepared_statements
        where name like 'sf\\_%' and statement like '%"stores"%' and statement like '%"slug" = $1'`.execute(database.db);
      expect(runs.rows).toEqual([{ n: 3 }]);
    } finally {
      await database.close();
    }
  });

  it('fails once when a migration changes its result, then runs written out', async () => {
    const database = await openOneConnection();
    const table = `executed_${randomBytes(4).toString('hex')}`;
    try {
      await sql`create table ${sql.table(table)} (id int primary key)`.execute(database.db);
      const read = () => database.db.transaction().execute((trx) => sql`select * from ${sql.table(table)} where id = ${1}`.execute(trx));
      await read();
      await read();
      await sql`alter table ${sql.table(table)} add column note text`.execute(database.db);
      await expect(read()).rejects.toMatchObject({ code: '0A000' });
      expect((await read()).rows).toEqual([]);
      expect((await read()).rows).toEqual([]);
    } finally {
      await sql`drop table if exists ${sql.table(table)}`.execute(database.db);
      await database.close();
    }
  });
});

describe.runIf(engine === 'postgres')('statements marked for a generic plan (PostgreSQL)', () => {
  it('run with the plan made once for the session, and leave the setting as it was, in a transaction or not', async () => {
    const database = await openOneConnection();
    try {
      const slug = `generic-${randomBytes(4).toString('hex')}`;
      const marked = (db: typeof database.db) =>
        withGenericPlan(db.selectFrom('stores').select('id').where('slug', '=', slug).limit(sql.lit(26))).execute();
      for (let n = 0; n < 3; n++) expect(await marked(database.db)).toEqual([]);
      await database.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        expect(await marked(trx)).toEqual([]);
        expect((await sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode`.execute(trx)).rows).toEqual([
          { mode: 'auto' },
        ]);
      });
      const plans = await sql<{ generic: number; custom: number }>`select generic_plans::int as generic, custom_plans::int as custom
        from pg_prepared_statements where statement like '%sf:generic-plan%' and statement like '%"slug" = $1%'`.execute(database.db);
      // the first run prepared it (with its values); the three after it used the generic plan
      expect(plans.rows).toEqual([{ generic: 3, custom: 1 }]);
      expect((await sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode`.execute(database.db)).rows).toEqual([
        { mode: 'auto' },
      ]);
    } finally {
      await database.close();
    }
  });
});

describe.runIf(engine === 'postgres')('the notification listener (PostgreSQL)', () => {
  it('hears notifications, and after losing its session reconnects with a reset first', async () => {
    const database = await openOneConnection();
    const events: string[] = [];
    const channel = `test_${randomBytes(4).toString('hex')}`;
    const listener = database.listen(channel, { message: (payload) => events.push(payload), reset: () => events.push('reset') });
    const until = async (check: () => boolean) => {
      for (const deadline = Date.now() + 10_000; !check() && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
      return check();
    };
    try {
      expect(await until(listener.live)).toBe(true);
      await sql`select pg_notify(${channel}, 'one')`.execute(database.db);
      expect(await until(() => events.includes('one'))).toBe(true);
      const pid = listener.backendPid();
      events.length = 0;
      await sql`select pg_terminate_backend(${pid})`.execute(database.db);
      expect(await until(() => !listener.live())).toBe(true);
      expect(await until(listener.live)).toBe(true);
      expect(listener.backendPid()).not.toBe(pid);
      // dropped when lost, and again when back (before it is live)
      expect(events).toEqual(['reset', 'reset']);
      await sql`select pg_notify(${channel}, 'two')`.execute(database.db);
      expect(await until(() => events.includes('two'))).toBe(true);
    } finally {
      await listener.close();
      await database.close();
    }
    expect(listener.live()).toBe(false);
  });

  it('listens on every channel of the process through one connection, opened by the first and closed with the last', async () => {
    const database = await openOneConnection();
    const heard: string[] = [];
    const [a, b] = ['a', 'b'].map((name) => `test_${name}_${randomBytes(4).toString('hex')}`);
    const listenerCount = async () =>
      (
        await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where application_name = ${`storefront-listener-${process.pid}`} and datname = current_database()`.execute(database.db)
      ).rows[0].n;
    const until = async (check: () => boolean | Promise<boolean>) => {
      for (const deadline = Date.now() + 10_000; !(await check()) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
      return check();
    };
    try {
      const first = database.listen(a, { message: (payload) => heard.push(`a:${payload}`), reset: () => undefined });
      expect(await until(first.live)).toBe(true);
      // the second channel joins the connection that is already up
      const second = database.listen(b, { message: (payload) => heard.push(`b:${payload}`), reset: () => undefined });
      expect(await until(second.live)).toBe(true);
      expect(second.backendPid()).toBe(first.backendPid());
      expect(await listenerCount()).toBe(1);
      await sql`select pg_notify(${a}, '1'), pg_notify(${b}, '2')`.execute(database.db);
      expect(await until(() => heard.length === 2)).toBe(true);
      expect(heard.sort()).toEqual(['a:1', 'b:2']);
      await first.close();
      await sql`select pg_notify(${a}, '3'), pg_notify(${b}, '4')`.execute(database.db);
      expect(await until(() => heard.includes('b:4'))).toBe(true);
      expect(heard).not.toContain('a:3');
      await second.close();
      expect(await until(async () => (await listenerCount()) === 0)).toBe(true);
    } finally {
      await database.close();
    }
  });
});
