import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dataDir = mkdtempSync(join(tmpdir(), 'storefront-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['bin/storefront.mjs', ...args], {
      env: { ...process.env, STOREFRONT_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the storefront CLI', () => {
  it('migrates, creates a store with its admin, more admins, and API keys (JSON on stdout)', async () => {
    expect(JSON.parse((await cli(['migrate'])).stdout)).toEqual({ migrated: true, engine: 'pglite' });
    const created = await cli([
      'stores',
      'create',
      '--slug',
      'acme',
      '--name',
      'Acme',
      '--admin-email',
      'owner@acme.test',
      '--admin-password',
      'long-secret-1',
    ]);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toEqual({
      store: { id: expect.stringMatching(/^[0-9a-f]{24}$/), slug: 'acme', name: 'Acme' },
      admin: { id: expect.any(String), email: 'owner@acme.test' },
    });
    const admin = await cli(['admins', 'create', '--store', 'acme', '--email', 'ops@acme.test', '--password', 'another-secret']);
    expect(JSON.parse(admin.stdout).admin.email).toBe('ops@acme.test');
    const key = JSON.parse(
      (await cli(['api-keys', 'create', '--store', 'acme', '--name', 'erp-sync', '--scopes', 'products:read,orders:write'])).stdout,
    );
    expect(key).toMatchObject({ name: 'erp-sync', key: expect.stringMatching(/^sfk_/), scopes: ['orders:write', 'products:read'] });
    const listed = JSON.parse((await cli(['api-keys', 'list', '--store', 'acme'])).stdout);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(key.key);
    const revoked = await cli(['api-keys', 'revoke', '--store', 'acme', '--id', key.id]);
    expect(JSON.parse(revoked.stdout)).toEqual({ id: key.id });
  }, 120_000);

  it('fails with a one-line message and a non-zero exit on bad input', async () => {
    const cases: [string[], RegExp][] = [
      [['stores', 'create', '--slug', 'acme', '--name', 'Again', '--admin-email', 'a@b.test', '--admin-password', 'long-secret-1'], /slug/],
      [['stores', 'create', '--slug', 'Bad Slug', '--name', 'X', '--admin-email', 'a@b.test', '--admin-password', 'long-secret-1'], /slug/],
      [['admins', 'create', '--store', 'nope', '--email', 'a@b.test', '--password', 'long-secret-1'], /no store/],
      [['admins', 'create', '--store', 'acme', '--email', 'not-an-email', '--password', 'long-secret-1'], /email/],
      [['admins', 'create', '--store', 'acme', '--email', 'x@acme.test', '--password', 'short'], /password/],
      [['api-keys', 'create', '--store', 'acme', '--name', 'x', '--scopes', 'everything'], /unknown scope/],
      [['stores', 'create', '--slug', 'x'], /missing --name/],
      [['frobnicate'], /unknown command/],
      [['--bogus-flag'], /bogus/],
    ];
    for (const [args, message] of cases) {
      const result = await cli(args);
      expect(result.code, args.join(' ')).not.toBe(0);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stdout).toBe('');
    }
  }, 180_000);

  it('refuses a bad environment variable by name', async () => {
    const result = await cli(['migrate'], { PORT: 'eighty' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/PORT must be an integer/);
  });
});
