import { parseArgs } from 'node:util';

/** Command-line options of `npm run bench`, validated once. */

export const SCALES = { '1k': 1_000, '10k': 10_000, '100k': 100_000, '250k': 250_000, '1m': 1_000_000 } as const;
export type ScaleName = keyof typeof SCALES;
export type Engine = 'pglite' | 'postgres';

export interface BenchOptions {
  engine: Engine;
  scale: ScaleName;
  /** PostgreSQL server URL; the bench creates (and drops) its own database on it */
  databaseUrl: string | null;
  connections: number;
  /** seconds */
  warmup: number;
  /** seconds per measured round */
  duration: number;
  /**
   * rounds and warm-ups of this many requests instead of `warmup` and `duration` seconds, every one answered however
   * long that takes: a round of a length in seconds answers none when each request takes longer on a loaded machine
   * (POST /auth's password hash did in the smoke run's one-second round at load 9). null: rounds of seconds.
   */
  requests: number | null;
  rounds: number;
  /** only these scenarios (names), all when empty */
  scenarios: string[];
  scaling: boolean;
  /** the Shopify CSV import against the NDJSON import of the same lines (bench/csv-import.ts) */
  csvImport: boolean;
  /** Shopify's inventory CSV and set of 250 levels against the product CSV import (bench/inventory-import.ts) */
  inventoryImport: boolean;
  /** --csv-import: the CSV imports alone, no NDJSON side (no ratio): a 100k PGlite import is half an hour each */
  csvOnly: boolean;
  smoke: boolean;
  cpuProf: boolean;
  /** after the scenarios: a V8 heap snapshot of the idle server (and the --baseline's) in the results directory */
  heapSnapshot: boolean;
  explain: boolean;
  /** also measure each read scenario against the ceiling serving that scenario's own response bytes */
  payloadCeiling: boolean;
  /** PostgreSQL: also the floor (n SELECT 1 round trips before the same bytes) on the ceiling server */
  floor: boolean;
  /** results directory */
  out: string;
  keepDatabase: boolean;
  /** PostgreSQL: measure the database a `--keep`/`--seed-only` run kept (bench/seed/kept-seed.ts) instead of seeding one */
  database: string | null;
  /** seed (and --explain), keep the database, measure nothing: for experiments on the plans */
  seedOnly: boolean;
  /** extra environment of the server under test (deployment knobs: MALLOC_ARENA_MAX, NODE_OPTIONS, …) */
  serverEnv: Record<string, string>;
  /** compiled: the production build; tsx: the sources as `npm start` runs them unbuilt */
  build: 'compiled' | 'tsx';
  /** seed skewed data: the reads' matches among the oldest rows, then a burst of 10,000 non-matching ones */
  skew: boolean;
  /** seed a second store with a catalog of the same size first */
  otherStore: boolean;
  /**
   * products seeded through the API's path; the rest of the scale are set-based copies of them (bench/seed/clone.ts).
   * null: every product through the API's path. 1m defaults to 10,000.
   */
  copiesOf: number | null;
  /** stores in all: the bench store and stores - 1 others, each a set-based copy of its catalog (bench/seed/clone.ts) */
  stores: number;
  /**
   * with stores > 1: the bench store also alone, in a copy of its database made before the others were added, served
   * by a second server from this checkout; every scenario's rounds go ceiling, among, alone (the --baseline rounds)
   */
  alone: boolean;
  /** `serve --workers N`: server processes under test (more than 1 needs REDIS_URL in --server-env) */
  workers: number;
  /**
   * another checkout (a worktree of main, say): its server runs beside this one on the same seed, and each
   * scenario's rounds go ceiling, this server, that one in turn, so old and new meet the same load. null: none.
   */
  baseline: string | null;
}

const USAGE = `npm run bench -- [options]
  --engine pglite|postgres   engine of the server under test (default pglite); postgres needs BENCH_DATABASE_URL
  --scale 1k|10k|100k|250k|1m  products seeded (default 10k); customers = products/2, orders = products*2
                             (250k: the wide search's ~20,000 matches, past 10,000; with --copies-of 10000)
  --connections N            autocannon connections (default 10)
  --warmup S --duration S    warm-up and measured round length in seconds (defaults 3 and 10)
  --requests N               instead, every warm-up and round is N requests, each answered however long it
                             takes (N at least --connections; --smoke: 20)
  --rounds N                 measured rounds per side, medians reported (default 3)
  --scenario a,b             only these scenarios (see bench/scenarios.ts), or those measured after them:
                             webhook-delivery (bench/webhooks.ts), import-products, export-products
                             (bench/bulk.ts: N = the scale's products, imported twice, then exported),
                             search-decay (bench/search-decay.ts: both searches before and after 10,000 creates)
  --scaling                  get-by-id, list page 1 and search at 1k, 10k and 100k
  --csv-import               (instead of the scenarios) a Shopify product CSV of the scale's products (current
                             headers, 3 options, 8 variants, image rows, a metafield column) and the NDJSON
                             file of the same import lines, each imported into a fresh database by a fresh
                             server: CSV products/s / NDJSON products/s, CPU per product, the server's RSS
                             growth (bench/csv-import.ts); --rounds N pairs (default 1), --cpu-prof profiles
                             each import; --smoke: 300 products; --csv-only: the CSV imports alone (no
                             NDJSON file, no ratio: its RSS growth and rate only)
  --inventory-import         (instead of the scenarios) a product CSV of the scale / 16 products, then a Shopify
                             inventory CSV of the scale's rows (each variant at two new locations), then
                             POST /inventory-levels/set of 250 levels 5 times, on one fresh database:
                             inventory rows/s / product rows/s and set's ms a level / the import's ms a row
                             (bench/inventory-import.ts); --smoke: 400 rows
  --smoke                    1k products, one round of 20 requests per side after a warm-up of 20 (what npm
                             test runs)
  --cpu-prof                 a V8 CPU profile of the server per scenario, with a top-functions summary
  --heap-snapshot            after the scenarios, a V8 heap snapshot of the idle server (and of --baseline's)
                             in the results directory's profiles/ (bench/heap-modules.ts reads one per module)
  --explain                  EXPLAIN (ANALYZE, BUFFERS) of the read scenarios' SQL after seeding
  --payload-ceiling          also rounds of each read scenario against the ceiling holding that scenario's
                             own responses: the cost of the payload alone (a list page is ~25 products)
  --floor                    PostgreSQL: also a bare server doing 1 and 3 SELECT 1 round trips per request
  --out DIR                  results directory (default bench/results)
  --build compiled|tsx       the server from a fresh production build (default) or from the sources via tsx
                             (--smoke defaults to tsx: no build step)
  --server-env KEY=VALUE     extra environment for the server under test (repeatable), e.g. MALLOC_ARENA_MAX=2
                             (not the --baseline's, which runs as its checkout ships)
  --skew                     skewed data: every product a measured read matches (both searches, the smart
                             collection) and every fulfilled order among the oldest rows, then a burst of
                             10,000 newer products and 10,000 newer pending orders that match none of them
  --other-store              first seed a second store with its own catalog of the same size (same words):
                             one store's search must not pay for another store's rows
  --copies-of N              seed N products through the API's path and the rest of the scale as set-based
                             copies of them (INSERT … SELECT, bench/seed/clone.ts); customers and orders then
                             follow N, not the scale. Default for 1m: 10000
  --stores N                 N stores in all: after the bench store, N - 1 others, each a set-based copy of its
                             catalog (one store's reads measured among many tenants)
  --alone                    with --stores N: the bench store alone too, in a copy of its database made before
                             the other stores were added (the same rows, ids and credentials), served by a
                             second server from this checkout; every scenario's rounds go ceiling, among,
                             alone (then alone first): among/alone per round, of req/s and of CPU per request
                             (server + PostgreSQL), medians and spread (bench/among-alone.ts)
  --workers N                the server under test runs \`serve --workers N\` (PostgreSQL; with N > 1 also
                             --server-env REDIS_URL=…); its RSS and CPU are the sums over the processes
  --baseline DIR             a second server from the checkout at DIR (e.g. a worktree of main, with its own
                             node_modules), on the same seed and built the same way; every scenario's rounds
                             go ceiling, this server, that one in turn: before/after under the same load
  --keep                     keep the seeded database / data dir (prints where)
  --seed-only                seed (and --explain), keep the database and print where: for experiments
  --database NAME            PostgreSQL: no seed; measure the database NAME a --keep or --seed-only run kept
                             (its seed's ids, key and matches are kept in it, schema bench_seed), with its
                             --scale; never dropped (drop it by hand). Seed a million once, measure it many
                             times; write scenarios change it for the runs after`;

function positive(name: string, raw: string | undefined, fallback: number, integer: boolean): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new Error(`--${name} must be a positive ${integer ? 'integer' : 'number'}, got "${raw}"`);
  }
  return value;
}

function copiesOf(raw: string | undefined, scale: ScaleName): number | null {
  const base = raw === undefined ? (scale === '1m' ? 10_000 : null) : positive('copies-of', raw, 1, true);
  if (base !== null && SCALES[scale] % base !== 0) throw new Error(`--copies-of must divide the scale's ${SCALES[scale]} products`);
  return base;
}

function engineOf(raw: string | undefined): Engine {
  const engine = raw ?? 'pglite';
  if (engine !== 'pglite' && engine !== 'postgres') throw new Error(`--engine must be pglite or postgres, got "${engine}"`);
  return engine;
}

function scaleOf(raw: string | undefined, smoke: boolean): ScaleName {
  const scale = raw ?? (smoke ? '1k' : '10k');
  if (!(scale in SCALES)) throw new Error(`--scale must be one of ${Object.keys(SCALES).join(', ')}, got "${scale}"`);
  return scale as ScaleName;
}

function envOf(pairs: string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new Error(`--server-env takes KEY=VALUE, got "${pair}"`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

function buildOf(raw: string | undefined, smoke: boolean): 'compiled' | 'tsx' {
  const build = raw ?? (smoke ? 'tsx' : 'compiled');
  if (build !== 'compiled' && build !== 'tsx') throw new Error(`--build must be compiled or tsx, got "${build}"`);
  return build;
}

/** A round's length as a report says it ("10 s", "20 requests"); a results file from before --requests has none. */
export const roundLength = (options: { duration: number; requests?: number | null }) =>
  options.requests ? `${options.requests}-request` : `${options.duration} s`;

/** The smoke run's rounds and warm-ups, in requests: two for each of the default ten connections. */
const SMOKE_REQUESTS = 20;

/** --requests N, else the smoke run's rounds of SMOKE_REQUESTS unless it was given lengths in seconds; null: seconds. */
function requestsOf(raw: string | undefined, smoke: boolean, seconds: boolean, connections: number): number | null {
  if (raw === undefined) return smoke && !seconds ? Math.max(SMOKE_REQUESTS, connections) : null;
  if (seconds) throw new Error('--requests takes the place of --warmup and --duration');
  const requests = positive('requests', raw, 1, true);
  // autocannon gives each connection its share of the requests: a connection with none is refused
  if (requests < connections) throw new Error(`--requests must be at least --connections (${connections}), got ${requests}`);
  return requests;
}

const OPTIONS = {
  engine: { type: 'string' },
  scale: { type: 'string' },
  connections: { type: 'string' },
  warmup: { type: 'string' },
  duration: { type: 'string' },
  requests: { type: 'string' },
  rounds: { type: 'string' },
  scenario: { type: 'string' },
  scaling: { type: 'boolean', default: false },
  'csv-import': { type: 'boolean', default: false },
  'inventory-import': { type: 'boolean', default: false },
  'csv-only': { type: 'boolean', default: false },
  smoke: { type: 'boolean', default: false },
  'cpu-prof': { type: 'boolean', default: false },
  'heap-snapshot': { type: 'boolean', default: false },
  explain: { type: 'boolean', default: false },
  'payload-ceiling': { type: 'boolean', default: false },
  floor: { type: 'boolean', default: false },
  out: { type: 'string' },
  keep: { type: 'boolean', default: false },
  'seed-only': { type: 'boolean', default: false },
  database: { type: 'string' },
  build: { type: 'string' },
  'server-env': { type: 'string', multiple: true },
  skew: { type: 'boolean', default: false },
  'other-store': { type: 'boolean', default: false },
  workers: { type: 'string' },
  'copies-of': { type: 'string' },
  stores: { type: 'string' },
  alone: { type: 'boolean', default: false },
  baseline: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): BenchOptions | 'help' {
  const { values } = parseArgs({ args: argv, options: OPTIONS, strict: true });
  if (values.help) return 'help';
  const smoke = values.smoke ?? false;
  const csvImport = values['csv-import'] ?? false;
  const engine = engineOf(values.engine);
  const databaseUrl = env.BENCH_DATABASE_URL || null;
  const stores = positive('stores', values.stores, 1, true);
  const connections = positive('connections', values.connections, 10, true);
  const alone = values.alone ?? false;
  if (alone && (stores < 2 || values.baseline))
    throw new Error('--alone needs --stores N (N > 1), and takes the place of --baseline (its rounds are the same)');
  if (engine === 'postgres' && !databaseUrl)
    throw new Error('--engine postgres needs BENCH_DATABASE_URL (a server URL, e.g. postgres://postgres@127.0.0.1:5432/postgres)');
  const database = values.database ?? null;
  if (database !== null && engine !== 'postgres') throw new Error('--database needs --engine postgres (and BENCH_DATABASE_URL)');
  if (database !== null && (values.scaling || csvImport || values['inventory-import']))
    throw new Error('--database measures the scenarios of one kept seed: not with --scaling, --csv-import or --inventory-import');
  return {
    engine,
    scale: scaleOf(values.scale, smoke),
    databaseUrl,
    connections,
    warmup: positive('warmup', values.warmup, smoke ? 0.5 : 3, false),
    duration: positive('duration', values.duration, smoke ? 1 : 10, false),
    requests: requestsOf(values.requests, smoke, values.warmup !== undefined || values.duration !== undefined, connections),
    rounds: positive('rounds', values.rounds, smoke || csvImport ? 1 : 3, true),
    scenarios: values.scenario ? values.scenario.split(',').map((name) => name.trim()) : [],
    scaling: values.scaling ?? false,
    csvImport,
    inventoryImport: values['inventory-import'] ?? false,
    csvOnly: values['csv-only'] ?? false,
    smoke,
    cpuProf: values['cpu-prof'] ?? false,
    heapSnapshot: values['heap-snapshot'] ?? false,
    explain: values.explain ?? false,
    payloadCeiling: values['payload-ceiling'] ?? false,
    floor: values.floor ?? false,
    out: values.out ?? new URL('./results/', import.meta.url).pathname,
    keepDatabase: (values.keep ?? false) || (values['seed-only'] ?? false),
    seedOnly: values['seed-only'] ?? false,
    database,
    build: buildOf(values.build, smoke),
    serverEnv: envOf(values['server-env'] ?? []),
    skew: values.skew ?? false,
    otherStore: values['other-store'] ?? false,
    workers: positive('workers', values.workers, 1, true),
    copiesOf: copiesOf(values['copies-of'], scaleOf(values.scale, smoke)),
    stores,
    alone,
    baseline: values.baseline ? `${values.baseline.replace(/\/+$/, '')}/` : null,
  };
}

export { USAGE };
