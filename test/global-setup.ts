import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { createOwnDatabase, type OwnDatabase } from './support/own-database.js';

/** A migrated PGlite data dir that each test file copies, so initdb and migrations run once per run. */
async function makePgliteTemplate(root: string): Promise<string> {
  const dir = join(root, 'template');
  const database = await openDatabase({ databaseUrl: null, dataDir: dir });
  await migrate(database.db);
  await database.close();
  return dir;
}

async function makePostgresDatabase(serverUrl: string): Promise<OwnDatabase> {
  const own = await createOwnDatabase(serverUrl, 'storefront_test');
  const database = await openDatabase({ databaseUrl: own.url, dataDir: '' });
  await migrate(database.db);
  await database.close();
  return own;
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
