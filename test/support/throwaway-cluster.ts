import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server-process.js';

/**
 * A PostgreSQL 15 cluster of a test's own, in a temp dir on a free port: a test may stop, crash and start
 * it at will without touching the shared server. initdb refuses to run as root, so as root every
 * PostgreSQL command runs as the `postgres` user (the temp dir is handed to it).
 */

const BIN = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';

export interface ThrowawayCluster {
  url: string;
  /** its temp dir (owned by the server's user): the data dir is `data` in it */
  root: string;
  port: number;
  /** `fast`: sessions are ended cleanly; `immediate`: no shutdown checkpoint, a crash as far as the data is concerned */
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  /** stopped (`fast`) and started again `ms` later without blocking this process: requests go on meanwhile */
  outage(ms: number): Promise<void>;
  destroy(): void;
}

function asRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function hasPostgresUser(): boolean {
  return spawnSync('id', ['-u', 'postgres']).status === 0;
}

/** Why a throwaway cluster cannot be made here, or null if it can. */
export function clusterUnavailable(): string | null {
  if (!existsSync(join(BIN, 'initdb')) || !existsSync(join(BIN, 'pg_ctl'))) return `no initdb/pg_ctl in ${BIN} (set PG_BIN_DIR)`;
  if (asRoot() && !hasPostgresUser()) return 'running as root and there is no postgres user to run initdb as';
  if (asRoot() && spawnSync('runuser', ['--help']).error) return 'running as root and runuser is missing';
  return null;
}

function commandLine(command: string, args: string[]): [string, string[]] {
  return asRoot() ? ['runuser', ['-u', 'postgres', '--', join(BIN, command), ...args]] : [join(BIN, command), args];
}

function run(command: string, args: string[]): void {
  const [file, argv] = commandLine(command, args);
  execFileSync(file, argv, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
}

async function runAsync(command: string, args: string[]): Promise<void> {
  const [file, argv] = commandLine(command, args);
  await promisify(execFile)(file, argv, { timeout: 60_000 });
}

function ownRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'storefront-cluster-'));
  chmodSync(root, 0o755);
  if (asRoot()) execFileSync('chown', ['postgres', root]);
  return root;
}

/** `settings`: server settings for its command line (`-c name=value`; values without spaces). */
export async function createThrowawayCluster(settings: Record<string, string> = {}): Promise<ThrowawayCluster> {
  const root = ownRoot();
  const data = join(root, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  return startOwnCluster(root, data, await freePort(), settings);
}

/**
 * A streaming replica of `primary` made as an operator makes one: `pg_basebackup -R` (the standby's
 * primary_conninfo and standby.signal written for it), on a port and in a temp dir of its own. `settings`
 * are added to its configuration (`recovery_min_apply_delay = '500ms'`: it replays each commit that late).
 * initdb's default pg_hba.conf lets 127.0.0.1 replicate with trust.
 */
export async function createThrowawayStandby(primary: ThrowawayCluster, settings: string[] = []): Promise<ThrowawayCluster> {
  const root = ownRoot();
  const data = join(root, 'data');
  run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', data, '-R', '-X', 'stream', '--no-sync']);
  appendFileSync(join(data, 'postgresql.auto.conf'), settings.map((line) => `${line}\n`).join(''));
  return startOwnCluster(root, data, await freePort());
}

function startOwnCluster(root: string, data: string, port: number, settings: Record<string, string> = {}): ThrowawayCluster {
  const extra = Object.entries(settings).map(([name, value]) => ` -c ${name}=${value}`);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${root}${extra.join('')}`;
  const startArgs = ['-D', data, '-o', options, '-l', join(root, 'server.log'), '-w', '-t', '60', 'start'];
  const stopArgs = (mode: string) => ['-D', data, '-m', mode, '-w', '-t', '60', 'stop'];
  const start = () => run('pg_ctl', startArgs);
  const stop = (mode: 'fast' | 'immediate' = 'fast') => run('pg_ctl', stopArgs(mode));
  const outage = async (ms: number) => {
    await runAsync('pg_ctl', stopArgs('fast'));
    await new Promise((resolve) => setTimeout(resolve, ms));
    await runAsync('pg_ctl', startArgs);
  };
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    root,
    port,
    stop,
    start,
    outage,
    destroy: () => {
      try {
        stop('immediate');
      } catch {
        // already stopped
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
