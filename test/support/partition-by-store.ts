import pg from 'pg';

/**
 * Rebuilds a migrated database with every store-owned table (one with a store_id column)
 * `PARTITION BY HASH (store_id)`, the way a sharded PostgreSQL (Citus) would split it: derived from the
 * catalog, so a table a later migration adds is partitioned too. Two tables stay whole, as Citus reference
 * tables: `api_keys` (a key is looked up before its store is known) and `stores` (its slug is unique
 * across stores: a login names the store by slug, so it cannot be partitioned by id).
 *
 * Each table is recreated from its own definition (columns, defaults, identities, generated columns,
 * checks, compression), then its primary and unique keys, indexes and triggers are recreated by name
 * from pg_get_*def, and finally every foreign key. What PostgreSQL requires of a partitioned table (each
 * unique key includes the partition key) the schema already gives: every key leads with store_id
 * (src/db/store-keys.test.ts). Hash partitions of one modulus give a value the same remainder in every
 * table, so a store's rows are in the partitions numbered alike.
 */

export const REFERENCE_TABLES = ['api_keys', 'stores'];

export interface Partitioned {
  /** partitioned table → its partition key */
  tables: Map<string, string>;
  /** partition name → its table */
  parentOf: Map<string, string>;
}

interface Definitions {
  foreignKeys: { table: string; name: string; def: string }[];
  keys: { table: string; name: string; def: string }[];
  indexes: { table: string; def: string }[];
  triggers: { table: string; def: string }[];
  /** SQL functions whose body or arguments name a table (its row type): dropped with it, so made again */
  functions: { name: string; def: string }[];
}

async function definitions(client: pg.Client, tables: string[]): Promise<Definitions> {
  const query = async <T>(text: string) => (await client.query(text, [tables])).rows as T[];
  return {
    foreignKeys: await query(`SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS def
      FROM pg_constraint WHERE contype = 'f' AND (conrelid::regclass::text = ANY($1) OR confrelid::regclass::text = ANY($1))`),
    keys: await query(`SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS def
      FROM pg_constraint WHERE contype IN ('p', 'u') AND conrelid::regclass::text = ANY($1) ORDER BY contype, conname`),
    indexes: await query(`SELECT x.indrelid::regclass::text AS table, pg_get_indexdef(x.indexrelid) AS def FROM pg_index x
      WHERE x.indrelid::regclass::text = ANY($1) AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`),
    triggers: await query(`SELECT tgrelid::regclass::text AS table, pg_get_triggerdef(oid) AS def FROM pg_trigger
      WHERE NOT tgisinternal AND tgrelid::regclass::text = ANY($1) ORDER BY tgname`),
    functions: await query(`SELECT DISTINCT p.oid::regprocedure::text AS name, pg_get_functiondef(p.oid) AS def FROM pg_depend d
      JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
      WHERE d.refclassid = 'pg_class'::regclass AND d.refobjid::regclass::text = ANY($1)`),
  };
}

/** Recreates `table` partitioned by `key` into `modulus` partitions, keeping its rows; keys, indexes and triggers come after. */
async function recreatePartitioned(client: pg.Client, table: string, key: string, modulus: number): Promise<string[]> {
  const old = `${table}__unpartitioned`;
  await client.query(`ALTER TABLE ${table} RENAME TO ${old}`);
  await client.query(`CREATE TABLE ${table} (LIKE ${old} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED
    INCLUDING IDENTITY INCLUDING STORAGE INCLUDING COMPRESSION INCLUDING COMMENTS) PARTITION BY HASH (${key})`);
  const partitions: string[] = [];
  for (let remainder = 0; remainder < modulus; remainder++) {
    const partition = `${table}_p${remainder}`;
    await client.query(`CREATE TABLE ${partition} PARTITION OF ${table} FOR VALUES WITH (MODULUS ${modulus}, REMAINDER ${remainder})`);
    partitions.push(partition);
  }
  const { rows } = await client.query(
    `SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) AS columns FROM pg_attribute
     WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''`,
    [old],
  );
  await client.query(`INSERT INTO ${table} (${rows[0].columns}) OVERRIDING SYSTEM VALUE SELECT ${rows[0].columns} FROM ${old}`);
  await client.query(`DROP TABLE ${old}`);
  return partitions;
}

export async function partitionByStore(url: string, modulus = 4): Promise<Partitioned> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string }>(`SELECT table_name FROM information_schema.columns c
      JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = current_schema() AND c.column_name = 'store_id' AND t.table_type = 'BASE TABLE' ORDER BY 1`);
    const tables = new Map(rows.filter((row) => !REFERENCE_TABLES.includes(row.table_name)).map((row) => [row.table_name, 'store_id']));
    const names = [...tables.keys()];
    await client.query('BEGIN');
    const defs = await definitions(client, names);
    for (const fk of defs.foreignKeys) await client.query(`ALTER TABLE ${fk.table} DROP CONSTRAINT ${fk.name}`);
    for (const fn of defs.functions) await client.query(`DROP FUNCTION ${fn.name}`);
    const parentOf = new Map<string, string>();
    for (const [table, key] of tables)
      for (const partition of await recreatePartitioned(client, table, key, modulus)) parentOf.set(partition, table);
    for (const fn of defs.functions) await client.query(fn.def);
    for (const k of defs.keys) await client.query(`ALTER TABLE ${k.table} ADD CONSTRAINT ${k.name} ${k.def}`);
    for (const index of defs.indexes) await client.query(index.def);
    for (const trigger of defs.triggers) await client.query(trigger.def);
    for (const fk of defs.foreignKeys) await client.query(`ALTER TABLE ${fk.table} ADD CONSTRAINT ${fk.name} ${fk.def}`);
    await client.query('COMMIT');
    await client.query('ANALYZE');
    return { tables, parentOf };
  } finally {
    await client.end();
  }
}
