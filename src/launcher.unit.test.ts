import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const flagsIn = (command: string) => command.split(/\s+/).filter((word) => word.startsWith('--'));

describe('the Node flags the server starts with', () => {
  it('are the same in bin/storefront.mjs (its #! line) and in `npm start`', () => {
    const shebang = read('bin/storefront.mjs').split('\n', 1)[0];
    const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
    expect(flagsIn(shebang)).toEqual(['--max-semi-space-size=4', '--heap-growing-percent=50', '--liftoff-only']);
    expect(flagsIn(start.slice(0, start.indexOf('bin/storefront.mjs')))).toEqual(flagsIn(shebang));
  });
});
