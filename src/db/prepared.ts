import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import pgUtils from 'pg/lib/utils.js';
import { holdingForCommit, inlineWith } from './deferred.js';
import { PLAN_CHANGED, StatementNames } from './statement-names.js';

/**
 * Named prepared statements for the pool (docs/performance-history/notebook.md, recommendation 3): pg prepares a named
 * statement once per connection and afterwards sends only Bind/Execute, so PostgreSQL skips parsing and
 * planning (half of a point read's database time). Which statements get a name: statement-names.ts.
 */

const names = new StatementNames();

/** A transaction's first statement written out with the values pg would have sent as its text parameters. */
const inlineText = inlineWith((value) => pgUtils.prepareValue(value));

function preparing(client: pg.PoolClient): PostgresPoolClient {
  const query = async (text: string, values: readonly unknown[]) => {
    const name = values.length ? names.nameOf(text) : undefined;
    if (!name) return client.query(text, values as unknown[]);
    try {
      return await client.query({ name, text, values: values as unknown[] });
    } catch (error) {
      if ((error as { code?: string }).code !== PLAN_CHANGED) throw error;
      // This text is never named again in this process; the failed statement's transaction fails as it would have.
      names.forget(text);
      throw error;
    }
  };
  // A multi-statement answer (held statements sent with the commit) is an array; Kysely reads the last.
  const lastOf = (answer: pg.QueryResult) => (Array.isArray(answer) ? (answer.at(-1) as pg.QueryResult) : answer);
  const held = () => ({ command: 'INSERT', rowCount: 0, rows: [], fields: [], oid: 0 }) as pg.QueryResult;
  // Streaming (cursors) is not configured, so Kysely only ever calls query(text, values).
  return { query: holdingForCommit(query, held, lastOf, inlineText), release: () => client.release() } as unknown as PostgresPoolClient;
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
