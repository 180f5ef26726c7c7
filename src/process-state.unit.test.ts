import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathsWhere, REPO_ROOT, sourceFiles } from '../test/support/source-files.js';

/**
 * What a mechanism needs is passed in where the app is built (src/app.ts), never kept per process: no source
 * of src/ names `globalThis` (a switch anyone can set), and the event feed keeps no module-level state (a
 * `let`, or a Map, Set, WeakMap or WeakSet made at the top of a file): the after-work of a write is one object
 * made by `createAfterWork` and passed in, and what a write notes lives on its transaction (src/events/notes.ts).
 */
const GLOBAL_THIS = /\bglobalThis\b/;
const MODULE_STATE = /^(export )?(let |var |const \w+(: [^=]+)? = new (Map|Set|WeakMap|WeakSet)\b)/m;

const usingGlobalThis = (files: { path: string; text: string }[]) => pathsWhere(files, ({ text }) => GLOBAL_THIS.test(text));
const keepingModuleState = (files: { path: string; text: string }[]) =>
  pathsWhere(files, ({ path, text }) => path.startsWith('src/events/') && MODULE_STATE.test(text));

describe('state kept per process', () => {
  it('finds globalThis, and module-level state in src/events', () => {
    expect(
      usingGlobalThis([
        { path: 'src/events/record.ts', text: 'const off = () => (globalThis as Record<symbol, unknown>)[SKIP] === true;' },
        { path: 'src/client/transport.ts', text: 'const send = options.fetch ?? fetch;' },
      ]),
    ).toEqual(['src/events/record.ts']);
    expect(
      keepingModuleState([
        { path: 'src/events/record.ts', text: 'const notedBy = new WeakMap<Tx, Map<string, Noted>>();' },
        { path: 'src/events/kinds.ts', text: 'export const loaders: Map<string, Loader> = new Map();' },
        { path: 'src/events/count.ts', text: 'let appended = 0;' },
        { path: 'src/events/after-work.ts', text: '  const byKind = new Map<RecordKind, string[]>();' },
        { path: 'src/events/types.ts', text: "export const EVENT_TYPES = ['product.created'];" },
        { path: 'src/webhooks/worker.ts', text: 'let running = 0;' },
      ]),
    ).toEqual(['src/events/count.ts', 'src/events/kinds.ts', 'src/events/record.ts']);
  });

  it('keeps src/ free of globalThis and src/events free of module-level state', () => {
    const files = sourceFiles(join(REPO_ROOT, 'src'));
    expect(usingGlobalThis(files), 'files naming globalThis').toEqual([]);
    expect(keepingModuleState(files), 'files of src/events with module-level state').toEqual([]);
  });
});
