import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { BULK_SCENARIOS, measureBulk } from './bulk.js';
import { type BenchTarget, createTarget } from './database.js';
import { explainReads } from './explain.js';
import { drive, measureScenario, type Rig, type ScenarioResult, type ServerWindow } from './measure.js';
import { type BenchOptions, SCALES, type ScaleName } from './options.js';
import { type Child, type ServerChild, startCeiling, startLoadDriver, startServer } from './processes.js';
import { type BenchResult, checkTargets, type ServerMemory } from './report.js';
import { FLOOR_SCENARIOS, headersFor, SCENARIOS, type Scenario, type ScenarioContext, scenarioByName } from './scenarios.js';
import { measureSearchDecay, SEARCH_DECAY } from './search-decay.js';
import { openKeptSeed, saveSeedInfo } from './seed/kept-seed.js';
import type { SeedInfo } from './seed/seed.js';
import { type SeededTargets, seedTargets } from './seed-targets.js';
import { createSampler } from './system.js';
import { measureWebhookDelivery, WEBHOOK_SCENARIO } from './webhooks.js';

/** One run: fresh database → seed → server, ceiling and load driver as children → every scenario → results. */

const say = (text: string) => process.stderr.write(`${text}\n`);

/** What an interrupted run must still undo (children, the bench database): run by the CLI on SIGINT/SIGTERM. */
export const pendingCleanups = new Set<() => Promise<void>>();

/** The code the server was built from: HEAD and whether src/ or migrations/ had uncommitted changes then. */
function codeVersion(): { commit: string | null; uncommitted: boolean } {
  const git = (args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    return { commit: git(['rev-parse', '--short', 'HEAD']), uncommitted: git(['status', '--porcelain', '--', 'src', 'migrations']) !== '' };
  } catch {
    return { commit: null, uncommitted: false };
  }
}

/** The ceiling holds the real server's answers to every read scenario's URLs, byte for byte. */
async function ceilingRoutes(server: ServerChild, context: ScenarioContext): Promise<{ path: string; body: string }[]> {
  const paths = [...new Set(SCENARIOS.flatMap((scenario) => scenario.urls?.(context) ?? []))];
  const routes: { path: string; body: string }[] = [];
  // A few at a time: the server is warm afterwards, not flooded.
  for (let start = 0; start < paths.length; start += 8) {
    const batch = paths.slice(start, start + 8).map(async (path) => {
      const response = await fetch(`${server.url}${path}`, { headers: headersFor(context, path), redirect: 'manual' });
      if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
      return { path, body: await response.text() };
    });
    routes.push(...(await Promise.all(batch)));
  }
  return routes;
}

/** Measured by their own code after the autocannon scenarios, not as req/s. */
const AFTERWARDS: readonly string[] = [WEBHOOK_SCENARIO, SEARCH_DECAY, ...BULK_SCENARIOS];

function selectScenarios(names: string[]): Scenario[] {
  names = names.filter((name) => !AFTERWARDS.includes(name));
  if (names.length === 0) return SCENARIOS;
  const wanted = new Set(names.map((name) => scenarioByName(name).name));
  return SCENARIOS.filter((scenario) => wanted.has(scenario.name));
}

function seedSummary(info: SeedInfo): BenchResult['seed'] {
  const { products, cartProducts, orderIds, customerIds, apiKey, adminPassword, consoleSession, ...rest } = info;
  return rest;
}

/** The process's memory by kind, MB: what the RSS is made of. */
function memoryOf(window: ServerWindow): Record<string, number> {
  const round = (mb: number) => Math.round(mb * 10) / 10;
  return {
    rss: round(window.rssMb),
    heapTotal: round(window.heapTotalMb),
    heapUsed: round(window.heapUsedMb),
    external: round(window.externalMb),
  };
}

function serverMemory(startup: ServerWindow, idle: ServerWindow, final: ServerWindow): ServerMemory {
  return {
    startupRssPeakMb: startup.rssPeakMb,
    lifetimeRssPeakMb: final.lifetimeRssPeakMb,
    idleRssMb: idle.rssMb,
    idle: memoryOf(idle),
    end: memoryOf(final),
  };
}

/** --heap-snapshot: the idle server's heap (and the baseline's), after every figure of the run was read. */
async function writeHeapSnapshots(rig: Rig, scale: ScaleName): Promise<string[]> {
  const dir = join(rig.options.out, 'profiles', `${rig.options.engine}-${scale}`);
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const [name, server] of [
    ['server', rig.server],
    ['baseline', rig.baseline],
  ] as const) {
    if (!server) continue;
    const file = join(dir, `${name}-idle-${Date.now()}.heapsnapshot`);
    await server.peer.request('heap-snapshot', { file });
    files.push(file);
  }
  return files;
}

interface Children {
  server?: ServerChild;
  /** --baseline: the other checkout's server, on the same database; --alone: this checkout's, on the store alone */
  baseline?: ServerChild;
  ceiling?: ServerChild;
  driver?: Child;
}

async function measureAll(rig: Rig, scenarios: Scenario[]): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  // The ceiling is warmed once; each scenario warms the real server itself.
  await drive(rig, 'get-product', rig.ceiling, rig.options.warmup);
  for (const scenario of scenarios) {
    say(`- ${scenario.name}`);
    results.push(await measureScenario(rig, scenario));
  }
  if (rig.options.floor && rig.options.engine === 'postgres') {
    for (const floor of FLOOR_SCENARIOS) {
      say(`- ${floor.name}`);
      results.push(await measureScenario(rig, floor, rig.ceiling));
    }
  }
  return results;
}

interface Started {
  children: Required<Omit<Children, 'baseline'>> & Pick<Children, 'baseline'>;
  code: ReturnType<typeof codeVersion>;
  startSeconds: number;
  startup: ServerWindow;
  /** --baseline/--alone: the other server's report once it was ready */
  baselineStartup?: ServerWindow;
}

/** Fills `children` as each starts, so the caller's cleanup stops whatever did start when a later one fails. */
async function startChildren(
  options: BenchOptions,
  target: BenchTarget,
  info: SeedInfo,
  logs: string,
  children: Children,
  alone?: BenchTarget,
): Promise<Started> {
  const began = performance.now();
  const code = codeVersion();
  // The server under test and the baseline (another checkout's, --baseline) start the same way.
  const serverFrom = (logName: string, root?: string, on: BenchTarget = target) =>
    startServer(on, {
      jwtSecret: randomBytes(48).toString('base64url'),
      logFile: join(logs, logName),
      build: options.build,
      // --server-env is the server under test's: a --baseline runs as its checkout ships (an --alone server is this one)
      env: root ? {} : options.serverEnv,
      workers: options.workers,
      ...(root ? { root } : {}),
    });
  children.server = await serverFrom('server.log');
  const startSeconds = (performance.now() - began) / 1000;
  const startup = await children.server.peer.request<ServerWindow>('report');
  say(
    `server ready in ${startSeconds.toFixed(1)} s (pid ${children.server.pid}, ${target.engine}); startup peak RSS ${startup.rssPeakMb.toFixed(0)} MB`,
  );
  if (options.baseline) {
    children.baseline = await serverFrom('baseline.log', options.baseline);
    say(`baseline server ready (pid ${children.baseline.pid}, from ${options.baseline})`);
  }
  if (alone) {
    children.baseline = await serverFrom('alone.log', undefined, alone);
    say(`server on the store alone ready (pid ${children.baseline.pid}, ${alone.describe})`);
  }
  const baselineStartup = await children.baseline?.peer.request<ServerWindow>('report');
  children.ceiling = await startCeiling(
    await ceilingRoutes(children.server, { seed: info, credential: info.apiKey }),
    target.databaseUrl,
    join(logs, 'ceiling.log'),
  );
  children.driver = await startLoadDriver(join(logs, 'load-driver.log'));
  return { children: children as Started['children'], code, startSeconds, startup, ...(baselineStartup ? { baselineStartup } : {}) };
}

function metaOf(options: BenchOptions, scale: ScaleName, started: Pick<Started, 'code' | 'startSeconds'>): BenchResult['meta'] {
  const { connections, warmup, duration, requests, rounds, smoke, serverEnv } = options;
  return {
    engine: options.engine,
    scale,
    products: SCALES[scale],
    date: new Date().toISOString(),
    node: process.version,
    cpus: `${cpus().length} x ${cpus()[0]?.model ?? 'unknown'}`,
    build: options.build,
    commit: started.code.commit,
    uncommittedChanges: started.code.uncommitted,
    options: { connections, warmup, duration, requests, rounds, smoke, serverEnv },
    serverStartSeconds: Math.round(started.startSeconds * 10) / 10,
  };
}

/** Seeded and started: every scenario, with the server's memory before and after. */
async function measureRun(
  options: BenchOptions,
  scale: ScaleName,
  scenarioNames: string[],
  rig: Rig,
  started: Started,
): Promise<BenchResult> {
  const idle = await rig.server.peer.request<ServerWindow>('report');
  const baselineIdle = await rig.baseline?.peer.request<ServerWindow>('report');
  const wants = (name: string) => scenarioNames.length === 0 || scenarioNames.includes(name);
  const onlyAfterwards = scenarioNames.length > 0 && scenarioNames.every((name) => AFTERWARDS.includes(name));
  // search-decay measures rounds too: it runs while the system sampler does
  let decay: Awaited<ReturnType<typeof measureSearchDecay>> | undefined;
  const measured = async () => {
    const results = onlyAfterwards ? [] : await measureAll(rig, selectScenarios(scenarioNames));
    if (wants(SEARCH_DECAY)) {
      say(`- ${SEARCH_DECAY}`);
      decay = await measureSearchDecay(rig, options.smoke ? 200 : undefined);
    }
    return results;
  };
  const scenarios = await measured().finally(() => rig.sampler.close());
  // Last: their orders, deliveries and products must not change what the other scenarios measure.
  if (wants(WEBHOOK_SCENARIO)) say(`- ${WEBHOOK_SCENARIO}`);
  const webhooks = wants(WEBHOOK_SCENARIO) ? await measureWebhookDelivery(rig) : undefined;
  const bulkNames = BULK_SCENARIOS.filter(wants);
  if (bulkNames.length) say(`- ${bulkNames.join(', ')}`);
  const bulk = bulkNames.length ? await measureBulk(rig, bulkNames, options.smoke ? 200 : SCALES[scale]) : undefined;
  const final = await rig.server.peer.request<ServerWindow>('report');
  const baselineFinal = await rig.baseline?.peer.request<ServerWindow>('report');
  const server: BenchResult['server'] = {
    ...serverMemory(started.startup, idle, final),
    ...(started.baselineStartup && baselineIdle && baselineFinal
      ? { baseline: serverMemory(started.baselineStartup, baselineIdle, baselineFinal) }
      : {}),
  };
  const heapSnapshots = options.heapSnapshot ? await writeHeapSnapshots(rig, scale) : undefined;
  return {
    meta: metaOf(options, scale, started),
    seed: seedSummary(rig.context.seed),
    server,
    scenarios,
    ...(heapSnapshots ? { heapSnapshots } : {}),
    ...(webhooks ? { webhooks } : {}),
    ...(decay ? { decay } : {}),
    ...(bulk ? { bulk } : {}),
    targets: checkTargets(options.engine, scale, scenarios, server.lifetimeRssPeakMb),
  };
}

function rigOf(
  options: BenchOptions,
  targets: { target: BenchTarget; alone?: BenchTarget },
  info: SeedInfo,
  children: Started['children'],
  profileDir: string,
): Rig {
  const { server, ceiling, driver, baseline } = children;
  const { target, alone } = targets;
  const pids = {
    server: server.pid,
    ceiling: ceiling.pid,
    driver: driver.process.pid as number,
    ...(baseline ? { baseline: baseline.pid } : {}),
  };
  const aloneDatabase = alone?.databaseUrl ? [new URL(alone.databaseUrl).pathname.slice(1)] : [];
  return {
    options,
    server,
    ...(baseline ? { baseline } : {}),
    ceiling,
    driver,
    context: { seed: info, credential: info.apiKey },
    profileDir,
    sampler: createSampler(target.databaseUrl, pids, aloneDatabase),
  };
}

/** --seed-only: no server, no scenarios; the result names the kept database. */
function seededOnly(options: BenchOptions, scale: ScaleName, info: SeedInfo, target: BenchTarget): BenchResult {
  say(
    `seeded; store ${info.storeId}, API key ${info.apiKey}, console cookie sf_console=${info.consoleSession}; DATABASE_URL=${target.databaseUrl ?? ''} STOREFRONT_DATA_DIR=${target.dataDir}`,
  );
  return {
    meta: metaOf(options, scale, { code: codeVersion(), startSeconds: 0 }),
    seed: seedSummary(info),
    server: emptyServer,
    scenarios: [],
    targets: [],
  };
}

const emptyServer = { startupRssPeakMb: 0, lifetimeRssPeakMb: 0, idleRssMb: 0, idle: {}, end: {} };

/**
 * The run's seeded databases: fresh ones (`created` receives each as soon as it exists, so cleanup drops it even
 * when a later step fails; the seed's info saved in it when it is kept), or --database: a kept seed, not seeded.
 */
async function seededTargets(options: BenchOptions, scale: ScaleName, created: BenchTarget[]): Promise<SeededTargets> {
  if (options.database) {
    const kept = await openKeptSeed(options.databaseUrl as string, options.database, SCALES[scale]);
    say(`measuring the kept seed in ${options.database} (${kept.info.counts.products} products; no seeding)`);
    created.push(kept.target); // its drop removes only the media dir made for this run
    return { info: kept.info, target: kept.target };
  }
  const first = await createTarget(options.engine, options.databaseUrl);
  created.push(first);
  say(`seeding ${scale} into ${first.describe}`);
  const targets = await seedTargets(options, scale, first, created);
  if (options.keepDatabase) await saveSeedInfo(targets.target, targets.info);
  return targets;
}

export async function runBench(options: BenchOptions, scale: ScaleName, scenarioNames: string[]): Promise<BenchResult> {
  const logs = join(options.out, 'logs');
  const profileDir = join(options.out, 'profiles', `${options.engine}-${scale}`);
  mkdirSync(logs, { recursive: true });
  if (options.cpuProf) mkdirSync(profileDir, { recursive: true });
  // Every target made (--alone makes two; --database's kept seed, whose drop leaves the database).
  const created: BenchTarget[] = [];
  const children: Children = {};
  const cleanup = async () => {
    pendingCleanups.delete(cleanup);
    await Promise.all([children.driver?.stop(5000), children.ceiling?.stop(5000)]);
    await Promise.all([children.server?.stop(), children.baseline?.stop()]);
    for (const made of created) {
      if (options.keepDatabase && !options.database) say(`kept ${made.describe}; measure it again with --database ${databaseName(made)}`);
      else await made.drop();
    }
  };
  pendingCleanups.add(cleanup);
  try {
    const targets = await seededTargets(options, scale, created);
    const { info, target, alone } = targets;
    if (options.explain) {
      await explainReads(target, info, join(options.out, `explain-${options.engine}-${scale}.txt`));
      if (alone) await explainReads(alone, info, join(options.out, `explain-${options.engine}-${scale}-alone.txt`));
    }
    if (options.seedOnly) return seededOnly(options, scale, info, target);
    const started = await startChildren(options, target, info, logs, children, alone);
    return await measureRun(options, scale, scenarioNames, rigOf(options, targets, info, started.children, profileDir), started);
  } finally {
    await cleanup();
  }
}

/** The database's name in the target's URL (PGlite: its data dir). */
function databaseName(target: BenchTarget): string {
  return target.databaseUrl ? new URL(target.databaseUrl).pathname.slice(1) : target.dataDir;
}
