import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cutInShards, cutProjectsInShards, SLOWEST } from './slow-first-sequencer.js';

const ROOT = new URL('../../', import.meta.url);

interface Item {
  project: string;
  file: string;
  weight: number;
}

/** A suite shaped as the real one: the slowest files with their figures among many short ones, five projects. */
function suite(): Item[] {
  const items: Item[] = [];
  const add = (project: string, file: string, weight: number) => items.push({ project, file, weight });
  for (const [file, seconds] of SLOWEST) {
    if (file.startsWith('src/')) {
      add('pglite', file, seconds);
      add('postgres', file, seconds / 2);
    } else add(file.startsWith('bench/') ? 'bench' : 'system', file, seconds);
  }
  for (let n = 0; n < 150; n++) {
    add('pglite', `src/api-${n}.test.ts`, n % 7 === 0 ? 16 : 7);
    add('postgres', `src/api-${n}.test.ts`, n % 7 === 0 ? 8 : 3);
  }
  for (let n = 0; n < 12; n++) add('system', `test/other-${n}.system.test.ts`, 20);
  for (let n = 0; n < 2; n++) add('bench', `bench/other-${n}.test.ts`, 15);
  for (let n = 0; n < 47; n++) add('unit', `src/pure-${n}.unit.test.ts`, 0.5);
  return items;
}

const keyOf = (item: Item) => `${item.project}:${item.file}`;
const cut = (items: Item[], count: number) =>
  cutProjectsInShards(
    items,
    count,
    (item) => item.project,
    (item) => item.weight,
    keyOf,
  );
const keysOf = (shards: Item[][]) => shards.map((shard) => shard.map(keyOf).sort());
const sum = (items: Item[]) => items.reduce((total, item) => total + item.weight, 0);

describe("the shards of CI's Node 20 run (cutProjectsInShards)", () => {
  it('puts every file of every project in exactly one shard, for any number of shards', () => {
    const items = suite();
    for (const count of [1, 2, 3, 6, 8]) {
      const shards = cut(items, count);
      expect(shards).toHaveLength(count);
      expect(shards.flat().map(keyOf).sort()).toEqual(items.map(keyOf).sort());
    }
  });

  it('makes the same cut whatever order the files come in (each shard is its own vitest process)', () => {
    const items = suite();
    const reversed = [...items].reverse();
    const interleaved = [...items.filter((_, at) => at % 2), ...items.filter((_, at) => at % 2 === 0)];
    for (const count of [2, 6]) {
      expect(keysOf(cut(reversed, count))).toEqual(keysOf(cut(items, count)));
      expect(keysOf(cut(interleaved, count))).toEqual(keysOf(cut(items, count)));
    }
  });

  it("cuts a project only into pieces of at least twice its slowest file: the bench project's stay together", () => {
    const items = suite();
    const shards = cut(items, 6);
    for (const project of ['unit', 'system', 'bench', 'pglite', 'postgres']) {
      const files = items.filter((item) => item.project === project);
      const pieces = shards.map((shard) => shard.filter((item) => item.project === project)).filter((piece) => piece.length);
      if (pieces.length === 1) continue;
      const slowest = Math.max(...files.map((item) => item.weight));
      for (const piece of pieces) expect(sum(piece), project).toBeGreaterThanOrEqual(2 * slowest);
    }
    expect(shards.filter((shard) => shard.some((item) => item.project === 'bench'))).toHaveLength(1);
    expect(shards.filter((shard) => shard.some((item) => item.project === 'unit'))).toHaveLength(1);
    // the largest project is spread out (two of its pieces may share a shard)
    expect(shards.filter((shard) => shard.some((item) => item.project === 'pglite')).length).toBeGreaterThan(3);
  });

  it('gives the shards about equal expected time', () => {
    const shards = cut(suite(), 6);
    const loads = shards.map(sum);
    const mean = loads.reduce((a, b) => a + b, 0) / loads.length;
    for (const load of loads) expect(Math.abs(load - mean) / mean).toBeLessThan(0.15);
  });
});

describe('cutInShards', () => {
  it('deals the heaviest first, each to the lightest shard: no shard is more than one item above another', () => {
    const items = Array.from({ length: 60 }, (_, n) => ({ key: `f${n}`, weight: (n * 37) % 23 }));
    const shards = cutInShards(
      items,
      4,
      (item) => item.weight,
      (item) => item.key,
    );
    const loads = shards.map((shard) => shard.reduce((total, item) => total + item.weight, 0));
    expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(22);
    expect(shards.flat()).toHaveLength(60);
  });
});

describe('the slowest files (SLOWEST)', () => {
  it('names files that exist, each once, slowest first (a renamed file would lose its place and weight)', () => {
    for (const [file] of SLOWEST) expect(existsSync(new URL(file, ROOT)), file).toBe(true);
    expect(new Set(SLOWEST.map(([file]) => file)).size).toBe(SLOWEST.length);
    const seconds = SLOWEST.map(([, s]) => s);
    expect(seconds).toEqual([...seconds].sort((a, b) => b - a));
  });
});
