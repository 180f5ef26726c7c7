import { CompiledQuery, type KyselyPlugin, PostgresQueryCompiler, type QueryId, type RootOperationNode } from 'kysely';
import type { Db } from '../../src/db/database.js';

/**
 * Records each statement a Kysely instance runs, as the PostgreSQL compiler renders it (the dialect
 * of both engines). Query builders embedded in a raw statement pass through transformQuery too, so a
 * statement is kept only once its result arrives: what ran, not its parts. Used by the bench's
 * --explain and by tests that check plans.
 */
export class StatementRecorder implements KyselyPlugin {
  readonly statements: CompiledQuery[] = [];
  private readonly compiled = new Map<QueryId, CompiledQuery>();
  private readonly compiler = new PostgresQueryCompiler();
  transformQuery(args: { node: RootOperationNode; queryId: QueryId }): RootOperationNode {
    this.compiled.set(args.queryId, this.compiler.compileQuery(args.node, args.queryId));
    return args.node;
  }
  async transformResult<T>(args: { result: T; queryId: QueryId }): Promise<T> {
    const statement = this.compiled.get(args.queryId);
    if (statement) this.statements.push(statement);
    return args.result;
  }
}

/** The statements `call` runs on `db`. */
export async function statementsOf(db: Db, call: (db: Db) => Promise<unknown>): Promise<CompiledQuery[]> {
  const recorder = new StatementRecorder();
  await call(db.withPlugin(recorder));
  return recorder.statements;
}

interface PlanNode {
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Join Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Rows every node of the plan produced or threw away, times its loops: the work a plan really did. */
function work(node: PlanNode): number {
  const rows =
    node['Actual Rows'] +
    (node['Rows Removed by Filter'] ?? 0) +
    (node['Rows Removed by Join Filter'] ?? 0) +
    (node['Rows Removed by Index Recheck'] ?? 0);
  return rows * node['Actual Loops'] + (node.Plans ?? []).reduce((sum, child) => sum + work(child), 0);
}

/** Runs `statement` under EXPLAIN (ANALYZE, FORMAT JSON) and returns the rows its plan touched. */
export async function planWork(db: Db, statement: CompiledQuery): Promise<number> {
  const result = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.sql}`, [...statement.parameters]),
  );
  const value = Object.values(result.rows[0])[0];
  const plan = (typeof value === 'string' ? JSON.parse(value) : value) as { Plan: PlanNode }[];
  return work(plan[0].Plan);
}
