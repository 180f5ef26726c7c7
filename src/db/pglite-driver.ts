import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';
import type { PgliteWorkerClient, QueryResult as WorkerResult } from './pglite-client.js';
import { holdingForCommit } from './statements/deferred.js';

/** PGlite has one session: callers take turns, and a transaction holds the turn until it ends. */
class Turnstile {
  private tail: Promise<void> = Promise.resolve();

  async enter(): Promise<() => void> {
    let leave!: () => void;
    const previous = this.tail;
    this.tail = new Promise((resolve) => {
      leave = resolve;
    });
    await previous;
    return leave;
  }
}

class PgliteConnection implements DatabaseConnection {
  // The worker answers a multi-statement message with its last statement's result already.
  private readonly run = holdingForCommit<WorkerResult>(
    (text, values) => this.client.query(text, values),
    () => ({ rows: [], affectedRows: 0 }),
    (answer) => answer,
  );

  constructor(private readonly client: PgliteWorkerClient) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.run(compiled.sql, compiled.parameters);
    return { rows: result.rows as R[], numAffectedRows: BigInt(result.affectedRows) };
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered by the worker protocol
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on the embedded engine');
  }
}

class PgliteWorkerDriver implements Driver {
  private readonly turnstile = new Turnstile();
  private readonly connection: PgliteConnection;
  private readonly leaves = new Map<DatabaseConnection, (() => void)[]>();

  constructor(private readonly client: PgliteWorkerClient) {
    this.connection = new PgliteConnection(client);
  }

  async init(): Promise<void> {
    await this.client.ready;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const leave = await this.turnstile.enter();
    const stack = this.leaves.get(this.connection) ?? [];
    stack.push(leave);
    this.leaves.set(this.connection, stack);
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.leaves.get(connection)?.shift()?.();
  }

  async destroy(): Promise<void> {
    await this.client.close();
  }
}

export function pgliteDialect(client: PgliteWorkerClient): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PgliteWorkerDriver(client),
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}
