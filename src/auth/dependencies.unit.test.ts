import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// src/auth sits on top: it checks credentials of stores, admins and API keys, so it imports those folders;
// none of them imports src/auth back. What both sides need (password hashing, scopes, the API-key format)
// lives in src/shared. Only the app itself wires src/auth in.

const SRC = resolve(import.meta.dirname, '..');
const IMPORT = /^\s*import\s[^'"]*['"](\.[^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.includes('.test.') ? [path] : [];
  });
}

function folderOf(file: string): string {
  return relative(SRC, file).split('/').slice(0, -1).join('/') || '.';
}

describe('folder dependencies around src/auth', () => {
  it('go one way: nothing under src imports src/auth except src/app.ts', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(SRC)) {
      if (folderOf(file) === 'auth' || relative(SRC, file) === 'app.ts') continue;
      for (const [, target] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        if (folderOf(resolve(dirname(file), target)) === 'auth') offenders.push(`${relative(SRC, file)} -> ${target}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
