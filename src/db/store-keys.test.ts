import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/helpers.js';

/**
 * Every store-owned table (one with a store_id column) has store_id first in its primary key and in every
 * unique constraint or index, so a sharded PostgreSQL (Citus, distributed by store_id) can enforce each of
 * them on one shard (docs/scaling.md). Read from the catalog of the migrated database, so a table another
 * migration adds is checked too. API keys are the one exception: a key is looked up before its store is
 * known (a reference table).
 */

const REFERENCE_TABLES = ['api_keys'];

interface KeyRow {
  table_name: string;
  index_name: string;
  first_column: string | null;
}

const t = useTestDatabase();

describe('store-owned tables', () => {
  it('lead every primary and unique key with store_id', async () => {
    const { rows } = await sql<KeyRow>`
      select c.relname as table_name, i.relname as index_name, a.attname as first_column
      from pg_index x
      join pg_class c on c.oid = x.indrelid
      join pg_class i on i.oid = x.indexrelid
      join pg_namespace n on n.oid = c.relnamespace
      left join pg_attribute a on a.attrelid = c.oid and a.attnum = x.indkey[0]
      where n.nspname = current_schema() and x.indisunique
        and exists (select 1 from pg_attribute s where s.attrelid = c.oid and s.attname = 'store_id' and not s.attisdropped)
      order by 1, 2`.execute(t.database.db);
    const checked = rows.filter((row) => !REFERENCE_TABLES.includes(row.table_name));
    // the check sees the tables it is about (not an empty catalog)
    expect(checked.map((row) => row.table_name)).toEqual(expect.arrayContaining(['products', 'orders', 'customers', 'jobs', 'events']));
    expect(checked.filter((row) => row.first_column !== 'store_id')).toEqual([]);
  });
});
