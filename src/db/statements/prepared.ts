import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import pgUtils from 'pg/lib/utils.js';
import { executeText, holdingForCommit, type Inline, inlineWith, literalsWith } from './deferred.js';
import { GENERIC_PLAN_MARK, genericPlanMessage } from './generic-plan.js';
import { PLAN_CHANGED, StatementNames } from './statement-names.js';

/**
 * Named prepared statements for the pool (docs/decisions.md, "Named prepared statements"): pg prepares a named
 * statement once per connection and afterwards sends only Bind/Execute, so PostgreSQL skips parsing and
 * planning (half of a point read's database time). Which statements get a name: statement-names.ts.
 */

const names = new StatementNames();

/** A transaction's first statement written out with the values pg would have sent as its text parameters. */
const inlineText = inlineWith((value) => pgUtils.prepareValue(value));
const literalsOf = literalsWith((value) => pgUtils.prepareValue(value));

/** pg's record of the named statements its session has prepared (name → text); undefined if pg changes it. */
function parsedStatements(client: pg.PoolClient): Record<string, string> | undefined {
  return (client as unknown as { connection?: { parsedStatements?: Record<string, string> } }).connection?.parsedStatements;
}

/**
 * The values as literals for `EXECUTE` of the session's prepared statement `name`, when the session has
 * prepared `text` under it (else undefined: the statement is not runnable as EXECUTE here).
 */
function executable(client: pg.PoolClient, name: string, text: string, values: readonly unknown[]): string[] | undefined {
  return parsedStatements(client)?.[name] === text ? literalsOf(values) : undefined;
}

/**
 * How a transaction's first statement travels with its BEGIN on this session. A named statement runs as
 * `EXECUTE` of the session's prepared one, so the BEGIN saves its round trip without the statement being
 * parsed and planned on every transaction (a create product's INSERT was: docs/decisions.md,
 * "The BEGIN with the first statement"). Where the session has not prepared it yet, nothing is inlined: the BEGIN goes alone
 * and the statement is prepared by its own run, once per session. An unnamed statement is written out with literals.
 */
function firstStatement(client: pg.PoolClient, executing: { text?: string }): Inline {
  return (text, values) => {
    const name = names.nameOf(text);
    if (name === undefined || parsedStatements(client) === undefined) return inlineText(text, values);
    const literals = executable(client, name, text, values);
    if (!literals) return undefined;
    executing.text = text;
    return executeText(name, literals);
  };
}

function preparing(client: pg.PoolClient): PostgresPoolClient {
  // the statement whose EXECUTE the message in flight carries (firstStatement)
  const executing: { text?: string } = {};
  const query = async (text: string, values: readonly unknown[]) => {
    const name = values.length ? names.nameOf(text) : undefined;
    const executed = executing.text;
    executing.text = undefined;
    try {
      if (!name) return await client.query(text, values as unknown[]);
      const literals = text.includes(GENERIC_PLAN_MARK) ? executable(client, name, text, values) : undefined;
      if (!literals) return await client.query({ name, text, values: values as unknown[] });
      const answer = (await client.query(genericPlanMessage(name, literals))) as unknown as pg.QueryResult[];
      return answer[1];
    } catch (error) {
      const changed = name ? text : executed;
      if ((error as { code?: string }).code !== PLAN_CHANGED || changed === undefined) throw error;
      // This text is never named again in this process; the failed statement's transaction fails as it would have.
      names.forget(changed);
      throw error;
    }
  };
  // A multi-statement answer (held statements sent with the commit) is an array; Kysely reads the last.
  const lastOf = (answer: pg.QueryResult) => (Array.isArray(answer) ? (answer.at(-1) as pg.QueryResult) : answer);
  const held = () => ({ command: 'INSERT', rowCount: 0, rows: [], fields: [], oid: 0 }) as pg.QueryResult;
  // Streaming (cursors) is not configured, so Kysely only ever calls query(text, values).
  const run = holdingForCommit(query, held, lastOf, firstStatement(client, executing));
  return { query: run, release: () => client.release() } as unknown as PostgresPoolClient;
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
