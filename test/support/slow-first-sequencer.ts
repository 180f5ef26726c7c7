import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The suite's slowest files, slowest first, with about how many seconds one run of each took on Node 20 in a
 * fresh-clone CI run on a quiet machine (an API file in `src`: its PGlite run; docs/testing.md, "Slow files";
 * docs/performance-history/ci-runs.md). vitest runs the files it has timings for longest first, but a fresh clone
 * (CI) has none and runs larger files first: these small but long files then started last, and a lane ended with
 * one of them running alone. The seconds weigh them when CI cuts the run in shards (below).
 */
export const SLOWEST: readonly (readonly [file: string, seconds: number])[] = [
  ['bench/bench.smoke.test.ts', 125],
  ['test/cli.system.test.ts', 110],
  ['src/imports/csv-large.test.ts', 83],
  // from the run's migrated templates instead of initdb: 115 s before, 0.70 of main's wall measured side by side
  ['test/csv-memory.system.test.ts', 80],
  ['test/console-ops.system.test.ts', 73],
  ['test/docs-page.system.test.ts', 68],
  ['src/http/fuzz.test.ts', 65],
  ['test/workers.system.test.ts', 62],
  ['test/migration-guide.system.test.ts', 52],
  ['bench/seed-targets.test.ts', 50],
  // its lease 20 s instead of 45 (STOREFRONT_WEBHOOK_LEASE_SECONDS): 71 s before, ~25 s less measured alone
  ['test/webhooks-kill.system.test.ts', 46],
  ['test/process-signals.system.test.ts', 45],
  // 87 s (PGlite) and 67 s (PostgreSQL) in CI before its pages were of 50 rows of 1,600 instead of 100 of 3,200
  ['src/reads/page-anchors.test.ts', 45],
  ['src/imports/dry-run.property.test.ts', 40],
  ['test/two-machines.system.test.ts', 40],
  ['test/replicas.system.test.ts', 36],
  ['src/cli/cli.test.ts', 30],
  ['src/db/database.test.ts', 30],
  ['test/console-session.system.test.ts', 30],
  ['test/imports-kill.system.test.ts', 29],
  ['test/console-screens.system.test.ts', 27],
  ['src/webhooks/order-replay.test.ts', 25],
  ['src/webhooks/webhooks.test.ts', 25],
  ['src/http/http.test.ts', 25],
];

/**
 * Seconds a file not in SLOWEST takes, by project: about the mean of its project's other files in the same run.
 * Only the shards' balance depends on them (a wrong guess makes one shard longer, never a file skipped).
 */
const TYPICAL: Record<string, number> = { unit: 0.5, system: 18, bench: 20, pglite: 8, postgres: 4 };
/** An API file's run on PostgreSQL takes about half its PGlite run (PGlite boots and runs every statement in WASM). */
const POSTGRES_SHARE = 0.5;

const slowestAt = (spec: TestSpecification) => SLOWEST.findIndex(([file]) => spec.moduleId.endsWith(`/${file}`));

const rank = (spec: TestSpecification) => {
  const at = slowestAt(spec);
  return at === -1 ? SLOWEST.length : at;
};

/** A file's expected seconds in its project: SLOWEST's figure, else its project's typical one. */
export function weightOf(spec: TestSpecification): number {
  const at = slowestAt(spec);
  if (at === -1) return TYPICAL[spec.project.name] ?? TYPICAL.pglite;
  return SLOWEST[at][1] * (spec.project.name === 'postgres' ? POSTGRES_SHARE : 1);
}

/**
 * Which of `count` shards runs each item: the heaviest first, each to the shard with the least weight so far
 * (longest processing time first). Ties go by key, so every process that sees the same items (each of CI's
 * shards is its own `vitest run`) makes the same cut: every item lands in exactly one shard.
 */
export function cutInShards<T>(items: readonly T[], count: number, weight: (item: T) => number, key: (item: T) => string): T[][] {
  const shards: T[][] = Array.from({ length: count }, () => []);
  const loads = new Array<number>(count).fill(0);
  const heaviestFirst = [...items]
    .map((item) => ({ item, weight: weight(item), key: key(item) }))
    .sort((a, b) => b.weight - a.weight || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const { item, weight: w } of heaviestFirst) {
    const lightest = loads.indexOf(Math.min(...loads));
    shards[lightest].push(item);
    loads[lightest] += w;
  }
  return shards;
}

/** A project's piece of a shard is worth the workers it restarts (vitest starts fresh ones for each project). */
const MIN_PIECE_SECONDS = 120;

/**
 * With processes reused (`isolate: false`), vitest runs one project's files after another's, each project's last
 * file waiting for the others to end. So a shard is made of pieces of projects, and a project is cut only into
 * pieces of at least twice its slowest file (two workers: that file has others beside it, the piece ends with
 * both busy) and MIN_PIECE_SECONDS: the bench project (its smoke run ~190 s, three other files) stays whole.
 * The pieces are then dealt out as files are, heaviest first to the lightest shard.
 */
export function cutProjectsInShards<T>(
  items: readonly T[],
  count: number,
  project: (item: T) => string,
  weight: (item: T) => number,
  key: (item: T) => string,
): T[][] {
  const byProject = new Map<string, T[]>();
  for (const item of items) byProject.set(project(item), [...(byProject.get(project(item)) ?? []), item]);
  const pieces: { key: string; items: T[]; weight: number }[] = [];
  for (const [name, files] of byProject) {
    const weights = files.map(weight);
    const total = weights.reduce((sum, w) => sum + w, 0);
    const fits = Math.floor(Math.min(total / (2 * Math.max(...weights)), total / MIN_PIECE_SECONDS));
    const cut = cutInShards(files, Math.max(1, Math.min(count, fits)), weight, key);
    for (const [at, part] of cut.entries()) {
      pieces.push({ key: `${name}#${at}`, items: part, weight: part.reduce((sum, file) => sum + weight(file), 0) });
    }
  }
  return cutInShards(
    pieces,
    count,
    (piece) => piece.weight,
    (piece) => piece.key,
  ).map((shard) => shard.flatMap((piece) => piece.items));
}

/**
 * vitest's own order (its timings when it has them), with the known slowest files moved to the front; with
 * `--shard=i/n`, shards of about equal expected time (cutProjectsInShards; vitest's own cut is by a hash of the
 * path, blind to time: two of the slowest files could share a shard and make it the whole run's tail).
 */
export default class SlowFirstSequencer extends BaseSequencer {
  override async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { shard, root } = this.ctx.config;
    if (!shard) return files;
    const key = (spec: TestSpecification) => `${spec.project.name}:${relative(root, spec.moduleId)}`;
    return cutProjectsInShards(files, shard.count, (spec) => spec.project.name, weightOf, key)[shard.index - 1];
  }

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((spec, at) => ({ spec, at }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.at - b.at)
      .map(({ spec }) => spec);
  }
}
