import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * What a user gets from the package itself: `storefront/client` importable right after `npm install`
 * (the prepare script builds it), and bin/storefront.mjs never running a build older than the sources.
 * Both run in a copy of the package's files, so the checkout's own dist/ is never touched.
 */

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '..');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function packageCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'storefront-package-'));
  dirs.push(dir);
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.client.json']) cpSync(join(repo, file), join(dir, file));
  cpSync(join(repo, 'bin'), join(dir, 'bin'), { recursive: true });
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

describe('the package entry points', () => {
  it('runs the prepare script on install, after which `storefront/client` imports with its types', async () => {
    const dir = packageCopy();
    cpSync(join(repo, 'src/client'), join(dir, 'src/client'), { recursive: true });
    const prepare = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts.prepare as string;
    expect(prepare).toBe('tsc -p tsconfig.client.json');
    await run(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.client.json'], { cwd: dir });
    const probe = "const c = await import('storefront/client'); console.log(typeof c.createStorefrontClient);";
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', probe], { cwd: dir });
    expect(stdout.trim()).toBe('function');
    const types = readFileSync(join(dir, 'dist/client/index.d.ts'), 'utf8');
    expect(types).toMatch(/createStorefrontClient/);
  }, 120_000);

  it('runs dist/ only while it was built from the sources as they are, else the sources', async () => {
    const dir = packageCopy();
    mkdirSync(join(dir, 'src/cli'), { recursive: true });
    mkdirSync(join(dir, 'dist/src/cli'), { recursive: true });
    writeFileSync(join(dir, 'src/cli/main.ts'), "console.log('sources');\n");
    writeFileSync(join(dir, 'dist/src/cli/main.js'), "console.log('compiled');\n");
    const start = async () => {
      const { stdout, stderr } = await run(process.execPath, ['bin/storefront.mjs'], { cwd: dir });
      return { ran: stdout.trim(), warned: stderr.includes('dist/ was built from older sources') };
    };
    // compiled code without a stamp (a build still running, or not made by `npm run build`): the sources
    expect(await start()).toEqual({ ran: 'sources', warned: false });
    await run(process.execPath, ['bin/build-stamp.mjs', 'write'], { cwd: dir });
    expect(await start()).toEqual({ ran: 'compiled', warned: false });
    // an edit (or a pull) after the build: the sources, and a word about it
    writeFileSync(join(dir, 'src/cli/main.ts'), "console.log('sources');\n// edited\n");
    expect(await start()).toEqual({ ran: 'sources', warned: true });
    await run(process.execPath, ['bin/build-stamp.mjs', 'clear'], { cwd: dir });
    expect(await start()).toEqual({ ran: 'sources', warned: false });
  }, 120_000);
});
