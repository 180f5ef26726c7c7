import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** `npm start` as a user runs it: a child process on the embedded engine, spoken to over HTTP. */
const dataDir = mkdtempSync(join(tmpdir(), 'storefront-blackbox-'));
const port = 20_000 + Math.floor(Math.random() * 20_000);
const base = `http://127.0.0.1:${port}`;
let server: ChildProcess;
let exited: Promise<number | null>;

// npm, tsx compiling the sources and PGlite's start took over 30 s on a loaded two-core machine (a red CI run).
async function waitForHealth(): Promise<void> {
  for (const deadline = Date.now() + 150_000; Date.now() < deadline; ) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the server did not start');
}

beforeAll(async () => {
  server = spawn('npm', ['start', '--silent'], {
    env: { ...process.env, PORT: String(port), STOREFRONT_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  exited = new Promise((resolve) => server.on('exit', resolve));
  await waitForHealth();
}, 180_000);

afterAll(() => {
  // Whatever is left of the process group (npm, its shell, the server). A SIGTERM'd npm has a signalCode and
  // no exitCode, and its group may already be gone: ESRCH then, which is what we want (CI on Node 20 once).
  try {
    if (server.pid) process.kill(-server.pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('serves the README walkthrough with the demo credentials, then stops cleanly on SIGTERM', async () => {
    const credentials = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8'));
    expect(credentials.storeSlug).toBe('demo');
    const auth = await fetch(`${base}/api/v1/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
    });
    expect(auth.status).toBe(200);
    const { accessToken } = (await auth.json()).data;
    const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
    const created = await fetch(`${base}/api/v1/attribute-sets`, { method: 'POST', headers, body: JSON.stringify({ name: 'Apparel' }) });
    expect(created.status).toBe(201);
    const list = await fetch(`${base}/api/v1/attribute-sets`, { headers });
    const body = await list.json();
    expect(body.pagination.total).toBe(1);
    expect(list.headers.get('x-request-id')).toBeTruthy();
    expect((await fetch(`${base}/docs/`)).status).toBe(200);

    process.kill(-(server.pid as number), 'SIGTERM');
    await exited;
    // A graceful stop closes the database, which releases the data dir's lock file.
    for (let i = 0; i < 40 && existsSync(join(dataDir, 'storefront.lock')); i++) await new Promise((r) => setTimeout(r, 250));
    expect(existsSync(join(dataDir, 'storefront.lock'))).toBe(false);
  }, 60_000);
});
