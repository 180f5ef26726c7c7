import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { COMMANDS } from '../src/cli/index.js';
import { runCli } from './support/cli.fixtures.js';
import { createOwnDatabase, type OwnDatabase } from './support/own-database.js';

const dataDir = mkdtempSync(join(tmpdir(), 'storefront-cli-'));
// Tests that write get their own database: on a loaded machine one test's timed-out child still holds its
// data dir's lock, and would fail the next test that opens it.
const ownDataDirs: string[] = [];
const ownDatabases: OwnDatabase[] = [];
afterAll(async () => {
  for (const dir of [dataDir, ...ownDataDirs]) rmSync(dir, { recursive: true, force: true });
  await Promise.all(ownDatabases.map((own) => own.drop()));
});

/**
 * The environment of a test's own database. The first test runs the embedded engine end to end (initdb,
 * migrations, every write); the others are about the CLI's words and exit codes, and every process of
 * theirs booting PGlite cost 5-10 s of CPU on a busy machine (the file took 250 s of a CI lane): they use a
 * copy of the run's migrated PostgreSQL template when the run has PostgreSQL, else a copy of the PGlite one.
 */
async function ownDatabase(): Promise<Record<string, string>> {
  const server = inject('postgresServer');
  if (server) {
    const own = await createOwnDatabase(server, 'storefront_cli', inject('postgresTemplate'));
    ownDatabases.push(own);
    return { DATABASE_URL: own.url, STOREFRONT_JWT_SECRET: 'x'.repeat(40) };
  }
  const dir = mkdtempSync(join(tmpdir(), 'storefront-cli-own-'));
  cpSync(inject('pgliteTemplate'), dir, { recursive: true });
  ownDataDirs.push(dir);
  return { STOREFRONT_DATA_DIR: dir };
}

/** The CLI on the run's own data dir (a test's `env` names its own database). */
const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, { STOREFRONT_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent', ...env });

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
      store: { id: expect.stringMatching(/^[0-9a-f]{24}$/), slug: 'acme', name: 'Acme', currency: 'USD' },
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
    // a store without products has no document to write
    expect(JSON.parse((await cli(['products', 'rebuild-documents', '--store', 'acme'])).stdout)).toEqual({ stores: 1, documents: 0 });
    // nine processes, the first through initdb: 2 minutes were not enough on a busy two-core machine
  }, 900_000);

  it('lists stores and admins as JSON arrays, without password hashes', async () => {
    const own = await ownDatabase();
    const slug = 'list-me';
    const created = await cli(
      ['stores', 'create', '--slug', slug, '--name', 'List', '--admin-email', 'one@list.test', '--admin-password', 'long-secret-1'],
      own,
    );
    expect(created.code, created.stderr).toBe(0);
    await cli(['admins', 'create', '--store', slug, '--email', 'two@list.test', '--password', 'long-secret-2'], own);
    const stores = JSON.parse((await cli(['stores', 'list'], own)).stdout);
    expect(stores).toContainEqual({
      id: JSON.parse(created.stdout).store.id,
      slug,
      name: 'List',
      currency: 'USD',
      createdAt: expect.any(String),
    });
    const admins = JSON.parse((await cli(['admins', 'list', '--store', slug], own)).stdout);
    expect(admins).toEqual([
      { id: expect.any(String), store: slug, email: 'one@list.test', createdAt: expect.any(String) },
      { id: expect.any(String), store: slug, email: 'two@list.test', createdAt: expect.any(String) },
    ]);
    const everyStore = JSON.parse((await cli(['admins', 'list'], own)).stdout);
    expect(everyStore.filter((admin: { store: string }) => admin.store === slug)).toEqual(admins);
    expect(JSON.stringify(everyStore)).not.toMatch(/password|scrypt|argon/i);
  }, 900_000);

  it('answers a duplicate slug or admin email in words, exit 1, one line', async () => {
    const own = await ownDatabase();
    const args = ['--name', 'Dup', '--admin-email', 'a@dup.test', '--admin-password', 'long-secret-1'];
    expect((await cli(['stores', 'create', '--slug', 'dup', ...args], own)).code).toBe(0);
    const again = await cli(['stores', 'create', '--slug', 'dup', ...args], own);
    expect(again).toEqual({ code: 1, stdout: '', stderr: "storefront: a store with slug 'dup' already exists\n" });
    const admin = await cli(['admins', 'create', '--store', 'dup', '--email', 'A@dup.test', '--password', 'long-secret-1'], own);
    expect(admin).toEqual({ code: 1, stdout: '', stderr: "storefront: store 'dup' already has an admin with email 'a@dup.test'\n" });
  }, 900_000);

  it('prints help for the CLI and for every command of the table, exit 0', async () => {
    for (const args of [['--help'], ['help']]) {
      const general = await cli(args);
      expect(general.code, args.join(' ')).toBe(0);
      for (const command of COMMANDS) expect(general.stdout).toContain(`  ${command.name}  `);
    }
    // One process per command (each form of asking is used for some command): a process start is slow.
    const forms = [
      (words: string[]) => [...words, '--help'],
      (words: string[]) => ['help', ...words],
      (words: string[]) => [...words, '-h'],
    ];
    for (const [index, command] of COMMANDS.entries()) {
      const args = forms[index % forms.length](command.name.split(' '));
      const help = await cli(args);
      expect(help.code, args.join(' ')).toBe(0);
      expect(help.stdout, args.join(' ')).toMatch(new RegExp(`^usage: storefront ${command.name}`));
      for (const option of Object.keys(command.options)) expect(help.stdout).toContain(`--${option}`);
      // the data commands name the database; import and export talk to a server over HTTP
      expect(help.stdout).toContain(command.overHttp ? 'STOREFRONT_URL' : 'DATABASE_URL');
      if (command.overHttp) expect(help.stdout).not.toContain('DATABASE_URL');
      expect(help.stderr).toBe('');
    }
    const group = await cli(['stores', '--help']);
    expect(group.stdout).toContain('stores list');
    expect(group.stdout).not.toContain('api-keys');
  }, 600_000);

  it('refuses a bad command line with a hint and exit 2', async () => {
    const cases: [string[], string][] = [
      [['frobnicate'], "storefront: unknown command 'frobnicate'; run 'storefront --help'\n"],
      [['stores'], "storefront: 'stores' needs a subcommand; run 'storefront --help'\n"],
      [['help', 'nothing'], "storefront: unknown command 'nothing'; run 'storefront --help'\n"],
      [['stores', 'list', '--bogus'], "storefront: Unknown option '--bogus' for 'stores list'; run 'storefront stores list --help'\n"],
      [['stores', 'list', 'extra'], "storefront: Unexpected argument 'extra' for 'stores list'; run 'storefront stores list --help'\n"],
      [['api-keys', 'list'], 'storefront: missing --store; usage: storefront api-keys list --store SLUG\n'],
      [['price-lists', 'get'], 'storefront: missing --id; usage: storefront price-lists get --id ID\n'],
      [['price-lists'], "storefront: 'price-lists' needs a subcommand; run 'storefront --help'\n"],
    ];
    for (const [args, stderr] of cases) expect(await cli(args), args.join(' ')).toEqual({ code: 2, stdout: '', stderr });
  }, 120_000);

  it('says in one line that the database is unreachable', async () => {
    const result = await cli(['stores', 'list'], {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/postgres',
      STOREFRONT_JWT_SECRET: 'x'.repeat(40),
    });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(/^storefront: cannot reach the database \(ECONNREFUSED\)[^\n]*\n$/),
    });
  }, 60_000);

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
    const own = await ownDatabase();
    const store = ['--name', 'Acme', '--admin-email', 'o@acme.test', '--admin-password', 'long-secret-1'];
    expect((await cli(['stores', 'create', '--slug', 'acme', ...store], own)).code).toBe(0);
    for (const [args, message] of cases) {
      const result = await cli(args, own);
      expect(result.code, args.join(' ')).not.toBe(0);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stdout).toBe('');
    }
    // ten processes one after the other: minutes on a busy machine when they boot PGlite
  }, 900_000);

  it('refuses a bad environment variable by name', async () => {
    const result = await cli(['migrate'], { PORT: 'eighty' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/PORT must be an integer/);
  });
});
