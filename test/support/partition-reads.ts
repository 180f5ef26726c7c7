import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What each statement a PostgreSQL server ran really read, per partitioned table: from the plans that
 * auto_explain logs with `log_analyze` (so a partition pruned while the statement ran, which a plain
 * EXPLAIN still lists, counts only if its scan ran at least once), in the server's `jsonlog`.
 */

/** The settings of a server whose every statement's plan, as run, is logged to `log` in its data dir. */
export const PLAN_LOG_SETTINGS = {
  shared_preload_libraries: 'auto_explain',
  logging_collector: 'on',
  log_destination: 'jsonlog',
  log_directory: 'log',
};

/** Set on one database (ALTER DATABASE … SET): its sessions opened after log every statement's plan. */
export const PLAN_LOG_DATABASE_SETTINGS = {
  'auto_explain.log_min_duration': '0',
  'auto_explain.log_analyze': 'on',
  'auto_explain.log_timing': 'off',
  'auto_explain.log_format': 'json',
  'auto_explain.log_nested_statements': 'on',
};

export interface StatementReads {
  text: string;
  /** partitioned table → the partitions the statement read */
  partitions: Map<string, Set<string>>;
  /** the plan takes row locks (FOR UPDATE / FOR SHARE: a LockRows node) */
  locks: boolean;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

function walk(node: PlanNode, parentOf: ReadonlyMap<string, string>, into: StatementReads): void {
  if (node['Node Type'] === 'LockRows') into.locks = true;
  // A scan that ran at least once. (An UPDATE's or DELETE's target partitions are not counted: a generic
  // plan lists them all, and it writes only rows its scans found.)
  const relation = node['Relation Name'];
  const table = relation && parentOf.get(relation);
  if (relation && table && node['Node Type'] !== 'ModifyTable' && (node['Actual Loops'] ?? 1) > 0) {
    const read = into.partitions.get(table) ?? new Set<string>();
    read.add(relation);
    into.partitions.set(table, read);
  }
  for (const child of node.Plans ?? []) walk(child, parentOf, into);
}

/** Every plan logged in `logDir` so far, with the partitions (named in `parentOf`) each one's statement read. */
export function readsOf(logDir: string, parentOf: ReadonlyMap<string, string>): StatementReads[] {
  if (!existsSync(logDir)) return [];
  const reads: StatementReads[] = [];
  for (const file of readdirSync(logDir).filter((name) => name.endsWith('.json'))) {
    for (const line of readFileSync(join(logDir, file), 'utf8').split('\n')) {
      if (!line.includes('plan:')) continue;
      const message: string = JSON.parse(line).message ?? '';
      const at = message.indexOf('plan:\n');
      if (!message.startsWith('duration:') || at < 0) continue;
      const plan = JSON.parse(message.slice(at + 'plan:\n'.length)) as { 'Query Text': string; Plan: PlanNode };
      const statement: StatementReads = { text: plan['Query Text'], partitions: new Map(), locks: false };
      walk(plan.Plan, parentOf, statement);
      reads.push(statement);
    }
  }
  return reads;
}

/** The errors the server logged (a statement the partitioned schema refused), for a failed walkthrough's message. */
export function errorsOf(logDir: string): string[] {
  if (!existsSync(logDir)) return [];
  return readdirSync(logDir)
    .filter((name) => name.endsWith('.json'))
    .flatMap((file) => readFileSync(join(logDir, file), 'utf8').split('\n'))
    .filter((line) => line.includes('"error_severity":"ERROR"'))
    .map((line) => {
      const entry = JSON.parse(line);
      return `${entry.message} (${entry.detail ?? ''}) in: ${entry.statement ?? ''}`;
    });
}

/** The tables of which a statement read more than one partition: those it read across stores. */
export function acrossPartitions(statement: StatementReads): string[] {
  return [...statement.partitions].filter(([, read]) => read.size > 1).map(([table]) => table);
}
