import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface OwnDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export async function adminQuery(serverUrl: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/** `serverUrl` with its database swapped for `name`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const OBJECT_IN_USE = '55006';

/**
 * CREATE DATABASE copies its template (template1 when none is named) and refuses when another session stays
 * connected to it for more than 5 s. The server is shared: another run's tool may hold template1 that long, so
 * the copy is tried again, up to six times (about 40 s in all), instead of failing a whole test run.
 */
async function createDatabase(serverUrl: string, statement: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(serverUrl, statement);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== OBJECT_IN_USE || attempt === 6) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

/**
 * A new database `<prefix>_<time>_<random>` on the server of `serverUrl`, for a test run or a bench run:
 * the name is unique, so concurrent runs never meet, and `drop` removes exactly what was created.
 * With `template` (a database nobody is connected to) it starts as a copy of that one: a migrated
 * template copied this way costs ~0.2 s where migrating costs ~1 s.
 */
export async function createOwnDatabase(serverUrl: string, prefix: string, template?: string): Promise<OwnDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await createDatabase(serverUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  return {
    url: databaseUrl(serverUrl, name),
    name,
    drop: async () => {
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
