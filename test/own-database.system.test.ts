import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { adminQuery, createOwnDatabase, databaseUrl } from './support/own-database.js';

// Test files and bench runs copy databases on a server shared with other runs; a copy must not fail because
// another session is connected to its template for a moment.

const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)('createOwnDatabase', () => {
  it('copies a template that another session holds for a moment, once that session has left', async () => {
    const template = await createOwnDatabase(serverUrl as string, 'storefront_own_template');
    const holder = new pg.Client({ connectionString: databaseUrl(serverUrl as string, template.name) });
    await holder.connect();
    // PostgreSQL itself waits up to 5 s for other sessions to leave the template: this one stays longer
    const leaving = new Promise((resolve) => setTimeout(resolve, 6_000)).then(() => holder.end());
    try {
      const copy = await createOwnDatabase(serverUrl as string, 'storefront_own_copy', template.name);
      const found = await adminQuery(serverUrl as string, `SELECT 1 FROM pg_database WHERE datname = '${copy.name}'`);
      await copy.drop();
      expect(found.rowCount).toBe(1);
    } finally {
      await leaving;
      await template.drop();
    }
  }, 60_000);
});
