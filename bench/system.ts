import { readFileSync } from 'node:fs';
import pg from 'pg';

/**
 * Where the machine's CPU went during a round, from outside every process (Linux /proc):
 * the database backends of the bench's own database, the load driver, everything else on the box
 * (other users' work is noise the ratio to the ceiling is meant to cancel; this shows how much there
 * was). On PostgreSQL it also samples what the backends were doing (pg_stat_activity wait events).
 */

const TICK_MS = 1000 / 100; // USER_HZ is 100 on Linux

export interface SystemWindow {
  /** CPU of the benchmark database's backends (PostgreSQL only; PGlite runs inside the server) */
  dbCpuMs: number;
  driverCpuMs: number;
  /** busy CPU of the whole machine, all cores */
  machineBusyMs: number;
  /** busy CPU not spent by the server, the ceiling, the load driver or our database */
  otherCpuMs: number;
  /** share of sampled non-idle backend states: CPU, Lock:transactionid, IO:WALSync, idle in transaction… */
  waits: Record<string, number>;
  /** the statements found waiting for a lock, by share of those samples (first 100 characters) */
  lockedStatements: Record<string, number>;
}

function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
  return { busy: total - fields[3] - fields[4], total };
}

function processTicks(pid: number): number {
  try {
    // The command name may hold spaces: the numbers start after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** counts -> shares of their total, largest first */
function shares(counts: Map<string, number>): Record<string, number> {
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  return Object.fromEntries(
    [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([key, n]) => [key, Math.round((n / total) * 1000) / 1000]),
  );
}

export interface Sampler {
  start(): Promise<void>;
  stop(): Promise<SystemWindow>;
  close(): Promise<void>;
}

interface Pids {
  server: number;
  ceiling: number;
  driver: number;
  /** --baseline/--alone: the second server under test */
  baseline?: number;
}

interface ActivityRow {
  pid: number;
  state: string | null;
  wait: string | null;
  query: string;
}

// The bench's own database and any other it made (--alone: the store alone's, whose backends serve the second server).
const ACTIVITY = `SELECT pid, state, wait_event_type || ':' || wait_event AS wait, left(query, 100) AS query FROM pg_stat_activity
  WHERE (datname = current_database() OR datname = ANY($1::text[])) AND pid <> pg_backend_pid() AND backend_type = 'client backend'`;

/** One round's view of the machine; on PostgreSQL also of the backends of the bench's own database. */
class SystemSampler implements Sampler {
  private readonly client: pg.Client | null;
  private readonly connected: Promise<unknown> | undefined;
  // pid -> [ticks when first seen, ticks when last seen]: a pool connection closed mid-round keeps its last reading.
  private backends = new Map<number, [number, number]>();
  private states = new Map<string, number>();
  private locked = new Map<string, number>();
  private poller: NodeJS.Timeout | null = null;
  private polling = false;
  private begin = { machine: machineTicks(), own: new Map<number, number>() };

  constructor(
    databaseUrl: string | null,
    private readonly pids: Pids,
    private readonly alsoDatabases: string[],
  ) {
    this.client = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : null;
    this.connected = this.client?.connect();
  }

  private async poll(): Promise<void> {
    if (!this.client) return;
    const { rows } = await this.client.query<ActivityRow>(ACTIVITY, [this.alsoDatabases]);
    for (const row of rows) {
      const ticks = processTicks(row.pid);
      const seen = this.backends.get(row.pid);
      if (!seen) this.backends.set(row.pid, [ticks, ticks]);
      else seen[1] = Math.max(seen[1], ticks);
      if (row.state === 'idle') continue;
      const key = row.state === 'active' ? (row.wait ?? 'CPU') : (row.state ?? 'unknown');
      this.states.set(key, (this.states.get(key) ?? 0) + 1);
      if (key.startsWith('Lock:')) this.locked.set(row.query, (this.locked.get(row.query) ?? 0) + 1);
    }
  }

  /** One poll at a time: a slow answer skips a tick rather than queueing behind itself. */
  private tick(): void {
    if (this.polling) return;
    this.polling = true;
    this.poll()
      .catch(() => undefined)
      .finally(() => {
        this.polling = false;
      });
  }

  async start(): Promise<void> {
    await this.connected;
    this.backends = new Map();
    this.states = new Map();
    this.locked = new Map();
    await this.poll();
    this.begin = { machine: machineTicks(), own: new Map(Object.values(this.pids).map((pid) => [pid, processTicks(pid)])) };
    if (this.client) this.poller = setInterval(() => this.tick(), 50);
  }

  async stop(): Promise<SystemWindow> {
    if (this.poller) clearInterval(this.poller);
    const machine = machineTicks();
    const own = (pid: number) => (processTicks(pid) - (this.begin.own.get(pid) ?? 0)) * TICK_MS;
    let dbCpuMs = 0;
    for (const [pid, [first, last]] of this.backends) dbCpuMs += (Math.max(last, processTicks(pid)) - first) * TICK_MS;
    const machineBusyMs = (machine.busy - this.begin.machine.busy) * TICK_MS;
    const baseline = this.pids.baseline === undefined ? 0 : own(this.pids.baseline);
    const ours = own(this.pids.server) + own(this.pids.ceiling) + own(this.pids.driver) + baseline + dbCpuMs;
    return {
      dbCpuMs,
      driverCpuMs: own(this.pids.driver),
      machineBusyMs,
      otherCpuMs: Math.max(0, machineBusyMs - ours),
      waits: shares(this.states),
      lockedStatements: shares(this.locked),
    };
  }

  async close(): Promise<void> {
    if (this.poller) clearInterval(this.poller);
    await this.client?.end();
  }
}

/** `alsoDatabases`: names of other databases whose backends count as the bench's (--alone's second database). */
export function createSampler(databaseUrl: string | null, pids: Pids, alsoDatabases: string[] = []): Sampler {
  return new SystemSampler(databaseUrl, pids, alsoDatabases);
}
