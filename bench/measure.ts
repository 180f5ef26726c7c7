import { loadavg } from 'node:os';
import { join } from 'node:path';
import { type PairedRatios, pairedRatios, type RoundCost } from './among-alone.js';
import type { RoundResult, RunJob } from './load-driver.js';
import type { BenchOptions } from './options.js';
import type { Child, ServerChild } from './processes.js';
import { formatProfile, type ProfileSummary, summarizeProfile } from './profile.js';
import type { Scenario, ScenarioContext } from './scenarios.js';
import type { Sampler, SystemWindow } from './system.js';

/** What the instrument preload reports for one measurement window (bench/instrument.mjs). */
export interface ServerWindow {
  eventLoop: { p50: number; p99: number; max: number };
  rssPeakMb: number;
  /** since the process started, warm-ups and startup included */
  lifetimeRssPeakMb: number;
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  cpuMs: number;
  peakSource: string;
}

export interface SideResult {
  /** medians over the rounds */
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  /** CPU per successful request, ms (medians over rounds): the server process (all its threads), the database backends, the load driver */
  cpuMsPerRequest: number;
  dbCpuMsPerRequest: number;
  driverCpuMsPerRequest: number;
  /** CPU used by other work on the machine during the rounds, in cores (median): noise, not us */
  otherCores: number;
  /** what the database backends were doing (PostgreSQL), averaged over the rounds */
  waits: Record<string, number>;
  /** which statements waited for locks (PostgreSQL), averaged over the rounds */
  lockedStatements: Record<string, number>;
  rounds: RoundResult[];
}

interface Measured {
  round: RoundResult;
  window: ServerWindow;
  system: SystemWindow;
}

export interface ScenarioResult {
  name: string;
  label: string;
  kind: Scenario['kind'];
  real: SideResult;
  ceiling: SideResult;
  /** real req/s over ceiling req/s, both medians of rounds run alternately under the same load */
  ratio: number;
  /** --payload-ceiling: the ceiling serving this scenario's own response bytes, and the ratio to it */
  payloadCeiling?: SideResult;
  payloadRatio?: number;
  /** scenarios marked `eventCost`: the same rounds with event appending switched off in the server */
  withoutEvents?: SideResult;
  /** real req/s over withoutEvents req/s (1 = events cost nothing) */
  eventsRatio?: number;
  /** --baseline: the same rounds against the other checkout's server, and real req/s over its req/s */
  baseline?: SideResult;
  baselineRatio?: number;
  /** --baseline/--alone: this server over the other, round by round (bench/among-alone.ts) */
  paired?: PairedRatios;
  /** --baseline/--alone: the other server's peak RSS over its rounds, MB */
  baselineRssPeakMb?: number;
  ceilingRssPeakMb: number;
  /** worst round: the event-loop delay p99 and peak RSS of the server under test, ms and MB */
  eventLoopP99: number;
  eventLoopMax: number;
  rssPeakMb: number;
  /** the machine's 1-minute load average as the scenario's rounds began and as they ended */
  loadAverage: [number, number];
  failures: { non2xx: number; errors: number; timeouts: number; statusCodes: Record<string, number> };
  profile?: { file: string; summary: ProfileSummary };
}

export interface Rig {
  options: BenchOptions;
  server: ServerChild;
  /**
   * --baseline: the other checkout's server; --alone: this checkout's on the bench store alone. Measured after the
   * server under test in even rounds and before it in odd ones, so neither side always follows the other.
   */
  baseline?: ServerChild;
  ceiling: ServerChild;
  driver: Child;
  context: ScenarioContext;
  profileDir: string;
  sampler: Sampler;
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** A warm-up or round of `seconds`, or of the run's --requests when it has them. */
export function drive(
  rig: Pick<Rig, 'options' | 'context' | 'driver'>,
  scenario: string,
  target: Pick<ServerChild, 'url'>,
  seconds: number,
): Promise<RoundResult> {
  const { connections, requests } = rig.options;
  const job: RunJob = {
    scenario,
    baseUrl: target.url,
    context: rig.context,
    connections,
    duration: seconds,
    ...(requests ? { amount: requests } : {}),
  };
  // a round of requests has no length: each may take up to the driver's 60-second timeout, a connection's in turn
  const timeoutMs = requests ? (Math.ceil(requests / connections) * 60 + 120) * 1000 : (seconds + 120) * 1000;
  return rig.driver.peer.request<RoundResult>('run', { ...job }, timeoutMs);
}

/**
 * Waits out the requests an earlier phase left running on a Storefront server: a phase of seconds stops at its
 * deadline, not when its last requests are answered, and the server still serves them (a phase of --requests
 * ends with its last answer). On the embedded engine (one session) a round's requests queued behind the warm-up's
 * ten in flight: `GET /prices` of 250 products answered none in the smoke run's one-second round at load ~7 (CI,
 * when the smoke's rounds were of seconds). `/readyz` pings the database, so on that session its answer comes after
 * everything queued before it. Not for the bare ceiling server, which has no database.
 */
async function settled(target: ServerChild): Promise<void> {
  const response = await fetch(`${target.url}/readyz`, { signal: AbortSignal.timeout(120_000) });
  await response.arrayBuffer();
}

/** One round against `target`, inside a fresh measurement window of that process and of the machine. */
async function measuredRound(rig: Rig, scenario: string, target: ServerChild): Promise<Measured> {
  if (target !== rig.ceiling) await settled(target);
  await target.peer.request('reset');
  await rig.sampler.start();
  const round = await drive(rig, scenario, target, rig.options.duration);
  const system = await rig.sampler.stop();
  const window = await target.peer.request<ServerWindow>('report');
  return { round, window, system };
}

function averageShares(runs: Measured[], pick: (system: SystemWindow) => Record<string, number>): Record<string, number> {
  const totals = new Map<string, number>();
  for (const run of runs) {
    for (const [key, share] of Object.entries(pick(run.system))) totals.set(key, (totals.get(key) ?? 0) + share / runs.length);
  }
  const sorted = [...totals.entries()].sort((x, y) => y[1] - x[1]);
  return Object.fromEntries(sorted.map(([key, share]) => [key, Math.round(share * 1000) / 1000]));
}

function side(results: Measured[]): SideResult {
  const rounds = results.map((r) => r.round);
  const perRequest = (ms: (r: Measured) => number) => median(results.map((r) => (r.round.ok > 0 ? ms(r) / r.round.ok : 0)));
  return {
    rps: median(rounds.map((r) => r.rps)),
    p50: median(rounds.map((r) => r.p50)),
    p95: median(rounds.map((r) => r.p95)),
    p99: median(rounds.map((r) => r.p99)),
    cpuMsPerRequest: perRequest((r) => r.window.cpuMs),
    dbCpuMsPerRequest: perRequest((r) => r.system.dbCpuMs),
    driverCpuMsPerRequest: perRequest((r) => r.system.driverCpuMs),
    otherCores: median(results.map((r) => r.system.otherCpuMs / (r.round.seconds * 1000))),
    waits: averageShares(results, (system) => system.waits),
    lockedStatements: averageShares(results, (system) => system.lockedStatements),
    rounds,
  };
}

/** A round's successful requests/s and its CPU per successful request, the server's and the database's. */
const roundCost = (r: Measured): RoundCost => ({
  rps: r.round.rps,
  cpuMsPerRequest: r.round.ok > 0 ? (r.window.cpuMs + r.system.dbCpuMs) / r.round.ok : 0,
});

async function profiled<T>(
  rig: Rig,
  scenario: string,
  target: ServerChild,
  work: () => Promise<T>,
): Promise<{ value: T; profile?: ScenarioResult['profile'] }> {
  // Only the server under test is profiled (the floors run on the ceiling process).
  if (!rig.options.cpuProf || target !== rig.server) return { value: await work() };
  const file = join(rig.profileDir, `${scenario}.cpuprofile`);
  await rig.server.peer.request('profile-start');
  const value = await work();
  await rig.server.peer.request('profile-stop', { file });
  const summary = summarizeProfile(file);
  process.stderr.write(`${formatProfile(summary, 8)}\n`);
  return { value, profile: { file, summary } };
}

/** The scenario's own requests against the ceiling, which holds the real responses to its URLs. */
async function measurePayloadCeiling(rig: Rig, scenario: Scenario): Promise<SideResult | undefined> {
  if (!rig.options.payloadCeiling || !scenario.urls) return undefined;
  const runs: Measured[] = [];
  for (let round = 0; round < rig.options.rounds; round++) runs.push(await measuredRound(rig, scenario.name, rig.ceiling));
  return side(runs);
}

/** A round with the server's bench-only switch set: no event is appended (the bench's own after-work: bench/serve.mjs). */
async function roundWithoutEvents(rig: Rig, scenario: string): Promise<Measured> {
  await rig.server.peer.request('skip-events', { skip: true });
  try {
    return await measuredRound(rig, scenario, rig.server);
  } finally {
    await rig.server.peer.request('skip-events', { skip: false });
  }
}

/**
 * Warm-up on the real server, then ceiling and real rounds alternately: C R C R C R (C R B … for a scenario
 * marked `eventCost`, B being the same requests with event appending off, so both meet the same phases).
 * `target` is the server under test, or the ceiling process itself for the floor scenarios.
 */
export async function measureScenario(rig: Rig, scenario: Scenario, target: ServerChild = rig.server): Promise<ScenarioResult> {
  await drive(rig, scenario.name, target, rig.options.warmup);
  const loadBefore = loadavg()[0];
  const other = target === rig.server ? rig.baseline : undefined;
  if (other) await drive(rig, scenario.name, other, rig.options.warmup);
  const ceilingRuns: Measured[] = [];
  const realRuns: Measured[] = [];
  const baselineRuns: Measured[] = [];
  const otherRuns: Measured[] = [];
  const eventCost = scenario.eventCost === true && target === rig.server;
  const { profile } = await profiled(rig, scenario.name, target, async () => {
    for (let round = 0; round < rig.options.rounds; round++) {
      ceilingRuns.push(await measuredRound(rig, 'get-product', rig.ceiling));
      const otherFirst = other !== undefined && round % 2 === 1;
      if (other && otherFirst) otherRuns.push(await measuredRound(rig, scenario.name, other));
      realRuns.push(await measuredRound(rig, scenario.name, target));
      if (eventCost) baselineRuns.push(await roundWithoutEvents(rig, scenario.name));
      if (other && !otherFirst) otherRuns.push(await measuredRound(rig, scenario.name, other));
    }
  });
  const baseline = other ? side(otherRuns) : undefined;
  const loadAverage: [number, number] = [Math.round(loadBefore * 100) / 100, Math.round(loadavg()[0] * 100) / 100];
  const real = side(realRuns);
  const withoutEvents = eventCost ? side(baselineRuns) : undefined;
  const ceiling = side(ceilingRuns);
  const payloadCeiling = await measurePayloadCeiling(rig, scenario);
  const statusCodes: Record<string, number> = {};
  for (const { round } of [...realRuns, ...baselineRuns, ...otherRuns])
    for (const [code, n] of Object.entries(round.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  // A failing other side (--baseline, --alone) invalidates the comparison as much as a failing server under test.
  const measured = [...realRuns, ...baselineRuns, ...otherRuns];
  const sum = (key: 'non2xx' | 'errors' | 'timeouts') => measured.reduce((total, r) => total + r.round[key], 0);
  return {
    name: scenario.name,
    label: scenario.label,
    kind: scenario.kind,
    real,
    ceiling,
    ratio: ceiling.rps > 0 ? real.rps / ceiling.rps : 0,
    ...(payloadCeiling ? { payloadCeiling, payloadRatio: payloadCeiling.rps > 0 ? real.rps / payloadCeiling.rps : 0 } : {}),
    ...(withoutEvents ? { withoutEvents, eventsRatio: withoutEvents.rps > 0 ? real.rps / withoutEvents.rps : 0 } : {}),
    ...(baseline
      ? {
          baseline,
          baselineRatio: baseline.rps > 0 ? real.rps / baseline.rps : 0,
          paired: pairedRatios(realRuns.map(roundCost), otherRuns.map(roundCost)),
          baselineRssPeakMb: Math.max(...otherRuns.map((r) => r.window.rssPeakMb)),
        }
      : {}),
    ceilingRssPeakMb: Math.max(...ceilingRuns.map((r) => r.window.rssPeakMb)),
    eventLoopP99: Math.max(...realRuns.map((r) => r.window.eventLoop.p99)),
    eventLoopMax: Math.max(...realRuns.map((r) => r.window.eventLoop.max)),
    rssPeakMb: Math.max(...realRuns.map((r) => r.window.rssPeakMb)),
    loadAverage,
    failures: { non2xx: sum('non2xx'), errors: sum('errors'), timeouts: sum('timeouts'), statusCodes },
    ...(profile ? { profile } : {}),
  };
}
