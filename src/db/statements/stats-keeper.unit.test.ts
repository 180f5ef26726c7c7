import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../schema.generated.js';
import { writtenTable } from './stats-keeper.js';

const db = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe('writtenTable', () => {
  it('names the table of builder and raw INSERT, UPDATE and DELETE statements', () => {
    const now = new Date();
    expect(writtenTable(db.insertInto('stores').values({ id: 'a', slug: 'a', name: 'a', created_at: now }).compile().query)).toBe('stores');
    expect(writtenTable(db.updateTable('products').set({ title: 't' }).where('id', '=', 'x').compile().query)).toBe('products');
    expect(writtenTable(db.updateTable('products as p').set({ title: 't' }).compile().query)).toBe('products');
    expect(writtenTable(db.deleteFrom('variants').where('id', '=', 'x').compile().query)).toBe('variants');
    expect(writtenTable(sql`INSERT INTO variant_attribute_values (store_id) SELECT 1`.compile(db).query)).toBe('variant_attribute_values');
    expect(writtenTable(sql`  update "variants" AS v SET position = 1`.compile(db).query)).toBe('variants');
    expect(writtenTable(sql`DELETE FROM variants WHERE id = ${'x'}`.compile(db).query)).toBe('variants');
    expect(writtenTable(sql`INSERT INTO ${sql.table('variants')} (id) VALUES (1)`.compile(db).query)).toBe('variants');
    expect(writtenTable(sql`INSERT INTO ${'variants'} (id) VALUES (1)`.compile(db).query)).toBeUndefined();
  });

  it('names the main statement’s table of raw SQL that starts with a WITH', () => {
    const links = sql`WITH links AS (INSERT INTO variant_attribute_values (v) SELECT ${'x'} FROM unnest(${['a']}::text[]) AS l(v))`;
    expect(writtenTable(sql`${links} INSERT INTO variants (id) SELECT ${'y'}`.compile(db).query)).toBeUndefined();
    expect(
      writtenTable(sql`WITH a AS (SELECT ${1}), b AS (DELETE FROM x) INSERT INTO "variants" (id) SELECT ${'y'} FROM a`.compile(db).query),
    ).toBe('variants');
    expect(writtenTable(sql`with gone as (delete from links returning v) update products set x = ${1} from gone`.compile(db).query)).toBe(
      'products',
    );
    expect(writtenTable(sql`WITH a AS (INSERT INTO links (v) VALUES (${1})) SELECT * FROM a`.compile(db).query)).toBeUndefined();
  });

  it('ignores reads and anything else', () => {
    expect(writtenTable(db.selectFrom('products').select('id').compile().query)).toBeUndefined();
    expect(writtenTable(sql`SELECT 1 FROM products`.compile(db).query)).toBeUndefined();
    expect(writtenTable(sql`ANALYZE products`.compile(db).query)).toBeUndefined();
  });
});
