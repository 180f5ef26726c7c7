// The build's stamp: a hash of the sources it was compiled from. `npm run build` writes it into dist/, and
// bin/storefront.mjs runs the compiled code only while the sources still hash the same, so a build older
// than the checkout (after a pull, or an edit) is never run by accident.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const stampFile = new URL('dist/BUILD-STAMP', root);

const rootPath = root.pathname;

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `${entry.parentPath ?? entry.path}/${entry.name}`)
    .sort();
}

/** Null where there are no sources (an installation of dist/ alone): nothing can be staler than them. */
export function sourceHash() {
  const src = `${rootPath}src`;
  if (!existsSync(src)) return null;
  const hash = createHash('sha256');
  for (const file of [...filesUnder(src), `${rootPath}tsconfig.json`].filter(existsSync)) {
    hash.update(file.slice(rootPath.length)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/**
 * 'fresh' (built from these sources), 'stale' (built from other sources), 'unstamped' (compiled code
 * without a stamp: a build still running, or one made without `npm run build`), or 'absent'.
 */
export function buildState() {
  if (!existsSync(new URL('dist/src/cli/main.js', root))) return 'absent';
  if (!existsSync(stampFile)) return 'unstamped';
  const current = sourceHash();
  if (current === null) return 'fresh';
  return readFileSync(stampFile, 'utf8').trim() === current ? 'fresh' : 'stale';
}

// `node bin/build-stamp.mjs clear` before a build, `node bin/build-stamp.mjs write` after it.
if (process.argv[1] && new URL(`file://${process.argv[1]}`).href === import.meta.url) {
  if (process.argv[2] === 'clear') rmSync(stampFile, { force: true });
  else if (process.argv[2] === 'write') writeFileSync(stampFile, `${sourceHash()}\n`);
  else throw new Error('usage: node bin/build-stamp.mjs clear|write');
}
