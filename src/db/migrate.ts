import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { Db } from './database.js';

// From src/db/ (sources under tsx) or dist/src/db/ (compiled): the repo's migrations/ folder either way.
const MIGRATIONS_DIR = [new URL('../../migrations/', import.meta.url), new URL('../../../migrations/', import.meta.url)].find((dir) =>
  existsSync(dir),
) as URL;
// Any constant: instances starting together on one PostgreSQL take turns migrating.
const MIGRATION_LOCK = 7_327_001;

export interface MigrationResult {
  applied: string[];
}

function migrationFiles(): { version: string; text: string }[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({ version: file.replace(/\.sql$/, ''), text: readFileSync(new URL(file, MIGRATIONS_DIR), 'utf8') }));
}

/** Applies every migration not yet recorded, all in one transaction so a failure leaves nothing half-done. */
export async function migrate(db: Db): Promise<MigrationResult> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(trx);
    await sql`create table if not exists schema_migrations (version text primary key, applied_at timestamptz not null default now())`.execute(
      trx,
    );
    const done = await sql<{ version: string }>`select version from schema_migrations`.execute(trx);
    const known = new Set(done.rows.map((row) => row.version));
    const applied: string[] = [];
    for (const migration of migrationFiles()) {
      if (known.has(migration.version)) continue;
      await sql.raw(migration.text).execute(trx);
      await sql`insert into schema_migrations (version) values (${migration.version})`.execute(trx);
      applied.push(migration.version);
    }
    return { applied };
  });
}
