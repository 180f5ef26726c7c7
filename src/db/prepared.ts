import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { holdingForCommit } from './deferred.js';

/**
 * Named prepared statements for the pool (docs/performance.md, recommendation 3): pg prepares a named
 * statement once per connection and afterwards sends only Bind/Execute, so PostgreSQL skips parsing and
 * planning (half of a point read's database time). Statements without parameters (BEGIN, COMMIT,
 * migrations) stay on the simple protocol; a statement whose text varies with a list's length
 * (`in ($1, $2, …)`) stays unnamed, or each length would be prepared on every connection; so does a
 * pattern match (`like`, `ilike`): after five runs PostgreSQL may settle on a generic plan, and a plan
 * made without the pattern cannot know whether the trigram index pays.
 */

/** At most this many names per process, so a process never holds more than this many plans per connection. */
const MAX_NAMES = 200;
/** `in ($1, $2` : a list of several parameters, whose length differs from call to call; or a pattern. */
const UNNAMED = /\bin \(\$\d+, \$|\bi?like\b/i;
/** "cached plan must not change result type": a migration changed a table under a prepared `select *`. */
const PLAN_CHANGED = '0A000';

const names = new Map<string, string | null>();

function nameOf(text: string): string | undefined {
  const known = names.get(text);
  if (known !== undefined) return known ?? undefined;
  if (names.size >= MAX_NAMES || UNNAMED.test(text)) return undefined;
  const name = `sf_${createHash('sha1').update(text).digest('base64url')}`;
  names.set(text, name);
  return name;
}

function preparing(client: pg.PoolClient): PostgresPoolClient {
  const query = async (text: string, values: readonly unknown[]) => {
    const name = values.length ? nameOf(text) : undefined;
    if (!name) return client.query(text, values as unknown[]);
    try {
      return await client.query({ name, text, values: values as unknown[] });
    } catch (error) {
      if ((error as { code?: string }).code !== PLAN_CHANGED) throw error;
      // This text is never named again in this process; the failed statement's transaction fails as it would have.
      names.set(text, null);
      throw error;
    }
  };
  // A multi-statement answer (held statements sent with the commit) is an array; Kysely reads the last.
  const lastOf = (answer: pg.QueryResult) => (Array.isArray(answer) ? (answer.at(-1) as pg.QueryResult) : answer);
  const held = () => ({ command: 'INSERT', rowCount: 0, rows: [], fields: [], oid: 0 }) as pg.QueryResult;
  // Streaming (cursors) is not configured, so Kysely only ever calls query(text, values).
  return { query: holdingForCommit(query, held, lastOf), release: () => client.release() } as unknown as PostgresPoolClient;
}

/** The pool as Kysely's PostgresDialect takes it, preparing named statements; one wrapper per pg client. */
export function preparingPool(pool: pg.Pool): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    connect: async () => {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = preparing(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}
