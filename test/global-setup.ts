import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A migrated PGlite data dir that each test file copies, so initdb and migrations run once per run. */
async function makePgliteTemplate(root: string): Promise<string> {
  const dir = join(root, 'template');
  const database = await openDatabase({ databaseUrl: null, dataDir: dir });
  await migrate(database.db);
  await database.close();
  return dir;
}

/** This run's own PostgreSQL database, created here and dropped at teardown. */
async function makePostgresDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `storefront_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
  await migrate(database.db);
  await database.close();
  return { url: url.toString(), drop: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export default async function setup(project: TestProject) {
  const root = mkdtempSync(join(tmpdir(), 'storefront-test-'));
  project.provide('pgliteTemplate', await makePgliteTemplate(root));
  project.provide('runId', randomBytes(6).toString('hex'));
  const serverUrl = process.env.TEST_DATABASE_URL;
  const postgres = serverUrl ? await makePostgresDatabase(serverUrl) : null;
  project.provide('postgresUrl', postgres?.url ?? '');
  return async () => {
    await postgres?.drop();
    rmSync(root, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresUrl: string;
    runId: string;
  }
}
