import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';

/**
 * A bulk load's secondary indexes dropped before it and built again after it, as `pg_restore` does: building an
 * index over a million rows sorts them once, where keeping it during the load inserts each row into every one
 * (the product's 14 indexes, five of them trigram GINs, and the variants' 4, over 9 rows a product).
 *
 * Only indexes no constraint uses go: the primary keys stay (the copies' own joins look rows up by them) and so
 * does any index a constraint owns or a foreign key references. The definitions are read from the catalog
 * (pg_get_indexdef), so an index a later migration adds is rebuilt exactly as migrated. They are built again
 * only after the load succeeded: a failed seed's database is dropped (or kept for a look, without them).
 */

interface IndexDefinition {
  name: string;
  definition: string;
}

/** Memory for each index build's sort (PostgreSQL's default, 64 MB, spills a million rows' sort to disk). */
const BUILD_MEMORY = '256MB';

/** The indexes on `tables` that no constraint owns or references. */
export async function secondaryIndexes(db: Db, tables: readonly string[]): Promise<IndexDefinition[]> {
  const { rows } = await sql<IndexDefinition>`SELECT i.relname AS name, pg_get_indexdef(x.indexrelid) AS definition
    FROM pg_index x
    JOIN pg_class i ON i.oid = x.indexrelid
    JOIN pg_class t ON t.oid = x.indrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE n.nspname = current_schema() AND t.relname = ANY(${[...tables]}::text[])
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
    ORDER BY t.relname, i.relname`.execute(db);
  return rows;
}

/** Runs `load` with the secondary indexes of `tables` dropped, then builds them again, each with BUILD_MEMORY for its sort. */
export async function withoutSecondaryIndexes<T>(db: Db, tables: readonly string[], load: () => Promise<T>): Promise<T> {
  const indexes = await secondaryIndexes(db, tables);
  for (const index of indexes) await sql`DROP INDEX ${sql.ref(index.name)}`.execute(db);
  const loaded = await load();
  const began = Date.now();
  await db.connection().execute(async (connection) => {
    await sql`SET maintenance_work_mem = ${sql.lit(BUILD_MEMORY)}`.execute(connection);
    for (const index of indexes) await sql.raw(index.definition).execute(connection);
    await sql`RESET maintenance_work_mem`.execute(connection);
  });
  process.stderr.write(`  ${indexes.length} secondary indexes built again in ${Math.round((Date.now() - began) / 1000)} s\n`);
  return loaded;
}
