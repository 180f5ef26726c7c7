import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely';

/**
 * Statement observers: one place, below Kysely and above either engine's connection, that sees every
 * statement a database handle sends (BEGIN, COMMIT and the held-for-commit ones included). Tracing makes a span of each (src/tracing); tests record them. Without an
 * observer the dialect is not wrapped at all, so an untraced process pays nothing.
 */

/**
 * Called as a statement is sent, with its parameters (which a tracer must not record: they are store
 * data); the function it returns (if any) is called once the statement has ended.
 */
export type StatementObserver = (text: string, parameters: readonly unknown[]) => ((error?: unknown) => void) | undefined;

class ObservedConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly observe: StatementObserver,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const end = this.observe(compiled.sql, compiled.parameters);
    if (!end) return this.inner.executeQuery<R>(compiled);
    try {
      const result = await this.inner.executeQuery<R>(compiled);
      end();
      return result;
    } catch (error) {
      end(error);
      throw error;
    }
  }

  streamQuery<R>(compiled: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(compiled, chunkSize);
  }
}

/** The engine's driver, handing out observed connections (the engine gets its own back to release). */
function observedDriver(inner: Driver, observe: StatementObserver): Driver {
  const wrappers = new WeakMap<DatabaseConnection, ObservedConnection>();
  const unwrap = (connection: DatabaseConnection) => (connection instanceof ObservedConnection ? connection.inner : connection);
  return {
    init: () => inner.init(),
    destroy: () => inner.destroy(),
    acquireConnection: async () => {
      const connection = await inner.acquireConnection();
      let wrapper = wrappers.get(connection);
      if (!wrapper) {
        wrapper = new ObservedConnection(connection, observe);
        wrappers.set(connection, wrapper);
      }
      return wrapper;
    },
    // BEGIN, COMMIT, ROLLBACK (and Kysely's savepoints) run through the observed connection: seen too.
    beginTransaction: (connection, settings) => inner.beginTransaction(connection, settings),
    commitTransaction: (connection) => inner.commitTransaction(connection),
    rollbackTransaction: (connection) => inner.rollbackTransaction(connection),
    savepoint: inner.savepoint?.bind(inner),
    rollbackToSavepoint: inner.rollbackToSavepoint?.bind(inner),
    releaseSavepoint: inner.releaseSavepoint?.bind(inner),
    // pg's driver releases through a private member of its own connection class: it gets its own back.
    releaseConnection: (connection) => inner.releaseConnection(unwrap(connection)),
  };
}

/** The dialect with every statement shown to `observe` (or the dialect itself when there is no observer). */
export function observedDialect(dialect: Dialect, observe: StatementObserver | undefined): Dialect {
  if (!observe) return dialect;
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => observedDriver(dialect.createDriver(), observe),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}
