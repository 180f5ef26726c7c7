import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The repository's root, for rules that read its sources. */
export const REPO_ROOT = join(import.meta.dirname, '..', '..');

/**
 * The TypeScript sources below `dir` (tests left out), each with its path from the repository's root and its
 * text: what a rule over the sources (where SQL is written, which calls load locale data) reads.
 */
export function sourceFiles(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => relative(REPO_ROOT, join(entry.parentPath, entry.name)))
    .map((path) => ({ path, text: readFileSync(join(REPO_ROOT, path), 'utf8') }));
}

/** The paths of the files a rule finds, sorted: what a rule's test compares with the empty list. */
export function pathsWhere(files: { path: string; text: string }[], found: (file: { path: string; text: string }) => boolean): string[] {
  return files
    .filter(found)
    .map(({ path }) => path)
    .sort();
}
