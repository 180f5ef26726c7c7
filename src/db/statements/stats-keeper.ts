import {
  type Kysely,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  RawNode,
  type RootOperationNode,
  sql,
  type UnknownRow,
} from 'kysely';
import type { DB } from '../schema.generated.js';

/**
 * The statistics keeper: fresh planner statistics without relying on autovacuum (off on some
 * deployments and CI, absent on the embedded engine).
 *
 * Why: PostgreSQL caches the plans of foreign-key checks per session. Planned while a table is nearly
 * empty, all of its indexes cost the same, and the check may walk an index on `store_id` alone (e.g.
 * `variants_product_idx`) with `id` as a filter: every entry of the store per checked row. The plan
 * stays until the table's statistics change, so a fresh store loaded through the API slowed from
 * 52 to 5 creates/s by its 2,000th product (docs/decisions.md, "The statistics keeper"). An ANALYZE invalidates
 * the cached plans of every session, and with real row counts the primary key wins.
 *
 * How: a Kysely plugin counts, in process, the rows each INSERT/UPDATE/DELETE reports as affected
 * (one property lookup per statement, a regular expression for raw SQL). When the rows written to a
 * table since its last known ANALYZE reach `growth` × its size then (and at least `minRows`), one
 * ANALYZE of that table runs in the background, in its own transaction, under a transaction-scoped
 * advisory lock, so with several processes on one database only one analyzes a table at a time, and
 * a process that finds the table already analyzed past its own writes (by another process or by
 * autovacuum) only adopts the new size.
 */

export interface StatsKeeperOptions {
  /** rows written since the last ANALYZE, as a share of the rows counted then, that trigger the next (1 = doubled) */
  growth: number;
  /** never analyze for fewer rows written than this */
  minRows: number;
  /** tables whose writes are not counted, left to autovacuum (or to no statistics at all) */
  unkept: readonly string[];
}

export const DEFAULT_STATS_KEEPER: StatsKeeperOptions = {
  growth: 1,
  minRows: 200,
  // The Requests log: written as fast as requests arrive and pruned as fast, its size steady, so by the rule
  // it was analyzed every few seconds (18 ANALYZEs in two minutes at ~3,000 requests/s, each invalidating its
  // statements' plans in every session); every statement on it walks one store's part of its primary key
  // and inserts check only stores' primary key, whatever its statistics say.
  unkept: ['request_log'],
};

/** The first key of the keeper's advisory locks (the second is the table's name hashed): "STAT". */
const LOCK_SPACE = 0x53544154;

interface TableState {
  /** rows in the table at its last ANALYZE known to this process (0 until one is known) */
  base: number;
  /** rows this process wrote to it since then */
  written: number;
  running: boolean;
}

/** `INSERT INTO t`, `UPDATE t`, `DELETE FROM t` at the start of raw SQL; the name may also follow as `sql.table(…)`. */
const RAW_WRITE = /^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:"?([a-z_][a-z0-9_]*)"?)?/i;

/**
 * Raw SQL that starts with a WITH: its main statement is the INSERT, UPDATE or DELETE that follows the
 * last CTE's closing parenthesis. The affected rows reported are the main statement's, so only its table
 * is counted (a CTE's writes go uncounted: keep the large write the main one).
 */
const WITH = /^\s*WITH\b/i;
const MAIN_WRITE = /^\s*WITH\b[\s\S]*\)\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?([a-z_][a-z0-9_]*)"?/i;

function mainWriteOf(text: string): string | undefined {
  return MAIN_WRITE.exec(text)?.[1]?.toLowerCase();
}

function tableName(node: OperationNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.kind === 'TableNode') return (node as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
  if (node.kind === 'AliasNode') return tableName((node as unknown as { node: OperationNode }).node);
  // sql.table(name) is a raw node wrapping the table
  if (RawNode.is(node) && node.parameters.length === 1 && node.sqlFragments.every((part) => part === ''))
    return tableName(node.parameters[0]);
  return undefined;
}

/** The table an INSERT, UPDATE or DELETE writes, or undefined for anything else. */
export function writtenTable(node: RootOperationNode): string | undefined {
  switch (node.kind) {
    case 'InsertQueryNode':
      return tableName(node.into);
    case 'UpdateQueryNode':
      return tableName(node.table);
    case 'DeleteQueryNode':
      return node.from.froms.length === 1 ? tableName(node.from.froms[0]) : undefined;
    case 'RawNode': {
      if (WITH.test(node.sqlFragments[0] ?? '')) return mainWriteOf(node.sqlFragments.join(' ? '));
      const match = RAW_WRITE.exec(node.sqlFragments[0] ?? '');
      if (!match) return undefined;
      return match[1] ? match[1].toLowerCase() : match[0] === node.sqlFragments[0] ? tableName(node.parameters[0]) : undefined;
    }
    default:
      return undefined;
  }
}

export class StatsKeeper implements KyselyPlugin {
  private readonly tables = new Map<string, TableState>();
  private readonly targets = new WeakMap<object, string>();
  private readonly running = new Set<Promise<void>>();
  private readonly unkept: ReadonlySet<string>;
  private db: Kysely<DB> | null = null;
  /** ANALYZEs this process ran, per table (for tests and diagnostics) */
  readonly analyzed = new Map<string, number>();

  constructor(private readonly options: StatsKeeperOptions = DEFAULT_STATS_KEEPER) {
    this.unkept = new Set(options.unkept);
  }

  /** The database the ANALYZEs run on (the plugin is created before it). */
  attach(db: Kysely<DB>): void {
    this.db = db;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const table = writtenTable(args.node);
    if (table && !this.unkept.has(table)) this.targets.set(args.queryId, table);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const table = this.targets.get(args.queryId);
    const rows = Number(args.result.numAffectedRows ?? 0);
    if (table && rows > 0) this.wrote(table, rows);
    return args.result;
  }

  /** Counts rows written to `table`; starts its ANALYZE in the background when it is due. */
  wrote(table: string, rows: number): void {
    let state = this.tables.get(table);
    if (!state) {
      state = { base: 0, written: 0, running: false };
      this.tables.set(table, state);
    }
    state.written += rows;
    if (state.running || !this.db || state.written < Math.max(this.options.minRows, state.base * this.options.growth)) return;
    state.running = true;
    const task = this.analyze(this.db, table, state)
      .catch(() => undefined) // a failed ANALYZE (lock timeout, shutdown) is retried on the next writes
      .finally(() => {
        state.running = false;
        this.running.delete(task);
      });
    this.running.add(task);
  }

  private async analyze(db: Kysely<DB>, table: string, state: TableState): Promise<void> {
    const writtenBefore = state.written;
    await db.transaction().execute(async (trx) => {
      const lock = await sql<{ got: boolean }>`SELECT pg_try_advisory_xact_lock(${LOCK_SPACE}, hashtext(${table})) AS got`.execute(trx);
      if (!lock.rows[0]?.got) {
        state.written -= writtenBefore; // another process is analyzing it now, our rows included
        return;
      }
      const known = await reltuples(trx, table);
      if (known < state.base + writtenBefore) {
        await sql`SET LOCAL lock_timeout = '2s'`.execute(trx);
        await sql`ANALYZE ${sql.table(table)}`.execute(trx);
        this.analyzed.set(table, (this.analyzed.get(table) ?? 0) + 1);
      }
      state.base = Math.max(0, await reltuples(trx, table));
      state.written -= writtenBefore;
    });
  }

  /** Waits for the ANALYZEs under way (before the database closes). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}

/** The table's row count as of its last ANALYZE or VACUUM (-1: never). */
async function reltuples(db: Kysely<DB>, table: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT reltuples::float8 AS n FROM pg_class WHERE oid = to_regclass(${table})`.execute(db);
  return Number(rows[0]?.n ?? -1);
}
