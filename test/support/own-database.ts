import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface OwnDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function adminQuery(serverUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * A new database `<prefix>_<time>_<random>` on the server of `serverUrl`, for a test run or a bench run:
 * the name is unique, so concurrent runs never meet, and `drop` removes exactly what was created.
 */
export async function createOwnDatabase(serverUrl: string, prefix: string): Promise<OwnDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
