import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { adminQuery, createOwnDatabase, type OwnDatabase } from './support/own-database.js';

// Runs once per `vitest run` (the root config's globalSetup; the projects do not inherit it): the
// migrated databases every test file starts from.

const ROOT = new URL('..', import.meta.url).pathname;
const CACHE = join(ROOT, 'node_modules', '.cache', 'storefront-test');
const DAY_MS = 24 * 60 * 60 * 1000;

/** What a migrated PGlite data dir depends on: the engine's version, how it is started, the migrations. */
function pgliteTemplateKey(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  hash.update(readFileSync(join(ROOT, 'src/db/pglite-worker.ts')));
  for (const file of readdirSync(join(ROOT, 'migrations')).sort()) {
    hash.update(file).update(readFileSync(join(ROOT, 'migrations', file)));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * A migrated PGlite data dir that each test file copies. initdb and the migrations cost ~10 s of CPU
 * (minutes on a busy machine), so the dir is kept between runs under node_modules/.cache, named by
 * what it depends on: a changed migration makes a new one. Built aside and renamed into place, so
 * concurrent runs never see half of one.
 */
async function pgliteTemplate(): Promise<string> {
  const dir = join(CACHE, `pglite-${pgliteTemplateKey()}`);
  if (existsSync(join(dir, 'pg', 'PG_VERSION'))) return dir;
  mkdirSync(CACHE, { recursive: true });
  for (const old of readdirSync(CACHE)) {
    const path = join(CACHE, old);
    // another run may rename its copy into place between the listing and this stat (CI's two lanes do)
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat && Date.now() - stat.mtimeMs > DAY_MS) rmSync(path, { recursive: true, force: true });
  }
  const building = `${dir}.${process.pid}-${randomBytes(4).toString('hex')}`;
  const database = await openDatabase({ databaseUrl: null, dataDir: building });
  await migrate(database.db);
  await database.close();
  try {
    renameSync(building, dir);
  } catch {
    rmSync(building, { recursive: true, force: true }); // a concurrent run put its copy there first
  }
  return dir;
}

/** A migrated PostgreSQL database for this run that no one connects to: each test file gets a copy (file-database.ts). */
async function postgresTemplate(serverUrl: string): Promise<OwnDatabase> {
  const own = await createOwnDatabase(serverUrl, 'storefront_test');
  const database = await openDatabase({ databaseUrl: own.url, dataDir: '', poolSize: 1 });
  try {
    await migrate(database.db);
  } finally {
    await database.close();
  }
  return own;
}

/** Drops the template and the copies of it that a killed test file left behind. */
async function dropCopies(serverUrl: string, template: OwnDatabase): Promise<void> {
  const copies = await adminQuery(serverUrl, `SELECT datname FROM pg_database WHERE datname LIKE '${template.name}\\_%'`);
  for (const { datname } of copies.rows) await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  await template.drop();
}

export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const [pglite, postgres] = await Promise.all([pgliteTemplate(), serverUrl ? postgresTemplate(serverUrl) : null]);
  project.provide('pgliteTemplate', pglite);
  project.provide('postgresServer', serverUrl ?? '');
  project.provide('postgresTemplate', postgres?.name ?? '');
  project.provide('runId', randomBytes(6).toString('hex'));
  return async () => {
    if (serverUrl && postgres) await dropCopies(serverUrl, postgres);
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** a migrated PGlite data dir to copy (never to open) */
    pgliteTemplate: string;
    /** TEST_DATABASE_URL, or '' */
    postgresServer: string;
    /** the name of this run's migrated PostgreSQL database that each file copies (never to connect to), or '' */
    postgresTemplate: string;
    runId: string;
  }
}
