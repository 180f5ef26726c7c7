import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const flagsIn = (command: string) => command.split(/\s+/).filter((word) => word.startsWith('--'));
const envIn = (command: string) => command.split(/\s+/).filter((word) => /^[A-Z_]+=/.test(word));

describe('the Node flags the server starts with', () => {
  it('are the same in bin/storefront.mjs (its #! line) and in `npm start`, with the same environment', () => {
    const shebang = read('bin/storefront.mjs').split('\n', 1)[0];
    const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
    const beforeBin = start.slice(0, start.indexOf('bin/storefront.mjs'));
    expect(flagsIn(shebang)).toEqual(['--max-semi-space-size=4', '--heap-growing-percent=50', '--liftoff-only']);
    expect(flagsIn(beforeBin)).toEqual(flagsIn(shebang));
    // glibc reads it before the first malloc: only the environment the process starts with can set it
    expect(envIn(shebang)).toEqual(['MALLOC_ARENA_MAX=2']);
    expect(envIn(beforeBin)).toEqual(envIn(shebang));
  });
});
