import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { engine, openTestDatabase } from '../../test/helpers.js';
import { findStoreBySlug } from '../stores/index.js';
import { openDatabase } from './database.js';
import { DataDirLockedError } from './lock-file.js';
import { migrate } from './migrate.js';

describe('migrations', () => {
  it('are recorded and applied once', async () => {
    const { database, cleanup } = await openTestDatabase();
    expect((await migrate(database.db)).applied).toEqual([]);
    await database.close();
    cleanup();
  });
});

describe.runIf(engine === 'pglite')('the embedded engine', () => {
  it('belongs to one process: a second open of the data dir fails at once, a closed one opens again', async () => {
    const { database, dataDir, cleanup } = await openTestDatabase();
    await expect(openDatabase({ databaseUrl: null, dataDir })).rejects.toThrow(DataDirLockedError);
    await expect(openDatabase({ databaseUrl: null, dataDir })).rejects.toThrow(/in use by process/);
    await database.close();
    expect(existsSync(join(dataDir, 'storefront.lock'))).toBe(false);
    const again = await openDatabase({ databaseUrl: null, dataDir });
    await again.close();
    cleanup();
  });

  it('analyzes with a 9,000-row sample: its WASM heap keeps what an ANALYZE held (pglite-worker.ts)', async () => {
    const { database, cleanup } = await openTestDatabase();
    const { rows } = await sql<{ target: string }>`SELECT current_setting('default_statistics_target') AS target`.execute(database.db);
    expect(rows[0]?.target).toBe('30');
    await database.close();
    cleanup();
  });

  it('runs on 16 MB of shared buffers: more would stay resident in its WASM heap (pglite-worker.ts)', async () => {
    const { database, cleanup } = await openTestDatabase();
    const { rows } = await sql<{ buffers: string }>`SELECT current_setting('shared_buffers') AS buffers`.execute(database.db);
    expect(rows[0]?.buffers).toBe('16MB');
    await database.close();
    cleanup();
  });

  it('keeps a committed write when the process is killed with SIGKILL', async () => {
    // The run's migrated template, so the child spends no time in initdb (tens of seconds on a busy machine).
    const dataDir = mkdtempSync(join(tmpdir(), 'storefront-kill-'));
    cpSync(inject('pgliteTemplate'), dataDir, { recursive: true });
    const slug = `killed-${Date.now().toString(36)}`;
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/commit-and-hang.ts', dataDir, slug], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('committed') && resolve());
      child.on('exit', (code) => reject(new Error(`child exited early with ${code}`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    // The lock file of the dead process is stale: the next open takes it over.
    const reopened = await openDatabase({ databaseUrl: null, dataDir });
    const store = await findStoreBySlug(reopened.db, slug);
    expect(store?.name).toBe('Committed before the crash');
    await reopened.close();
    rmSync(dataDir, { recursive: true, force: true });
  }, 180_000);
});
