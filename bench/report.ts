import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatAmongAlone, spreadText } from './among-alone.js';
import { type BulkResult, formatBulk } from './bulk.js';
import type { ScenarioResult } from './measure.js';
import { type BenchOptions, type Engine, roundLength } from './options.js';
import { type DecayResult, formatDecay } from './search-decay.js';
import type { SeedInfo } from './seed/seed.js';
import { formatWebhookDelivery, type WebhookDeliveryResult } from './webhooks.js';

/** The results of one run: printed as a table, written as JSON, checked against the issue's targets. */

/** A server's RSS at start, idle (after the ceiling's warm-up reads) and at its peak; its memory by kind idle and at the end. */
export interface ServerMemory {
  startupRssPeakMb: number;
  lifetimeRssPeakMb: number;
  idleRssMb: number;
  idle: Record<string, number>;
  end: Record<string, number>;
}

export interface BenchResult {
  meta: {
    engine: Engine;
    scale: string;
    products: number;
    date: string;
    node: string;
    cpus: string;
    build: 'compiled' | 'tsx';
    commit: string | null;
    /** src/ or migrations/ differed from the commit when the server was built */
    uncommittedChanges: boolean;
    options: Pick<BenchOptions, 'connections' | 'warmup' | 'duration' | 'rounds' | 'smoke' | 'serverEnv'> &
      Partial<Pick<BenchOptions, 'requests'>>;
    serverStartSeconds: number;
  };
  seed: Omit<SeedInfo, 'products' | 'cartProducts' | 'orderIds' | 'customerIds' | 'apiKey' | 'adminPassword' | 'consoleSession'>;
  server: ServerMemory & {
    /** --baseline/--alone: the other server's, measured the same way */
    baseline?: ServerMemory;
  };
  scenarios: ScenarioResult[];
  /** --heap-snapshot: the files written after the scenarios */
  heapSnapshots?: string[];
  /** webhook-delivery (bench/webhooks.ts) */
  webhooks?: WebhookDeliveryResult;
  /** import-products, export-products (bench/bulk.ts) */
  bulk?: BulkResult;
  /** search-decay (bench/search-decay.ts) */
  decay?: DecayResult;
  targets: TargetCheck[];
}

export interface TargetCheck {
  target: string;
  value: number;
  threshold: number;
  met: boolean;
  /** the issue states the target for this engine and scale (PostgreSQL at 100k for throughput) */
  applies: boolean;
}

/** The open-source peer's figures at 10,000 products on PostgreSQL (from the issue), per second. */
export const PEER: Record<string, number> = {
  'get-product': 25,
  'list-products': 3.6,
  'search-products': 1.3,
  'create-product': 5.8,
};

const RATIO_TARGETS: [string, number][] = [
  ['get-product', 0.5],
  ['list-products', 0.3],
  ['list-products-price-deep', 0.15],
  ['search-products', 0.05],
];
const RATE_TARGETS: [string, number][] = [
  ['create-product', 500],
  ['create-order', 1000],
];

export function checkTargets(engine: Engine, scale: string, scenarios: ScenarioResult[], lifetimeRssPeakMb: number): TargetCheck[] {
  const byName = new Map(scenarios.map((s) => [s.name, s]));
  const throughputApplies = engine === 'postgres' && scale === '100k';
  const checks: TargetCheck[] = [];
  for (const [name, threshold] of RATIO_TARGETS) {
    const s = byName.get(name);
    if (s)
      checks.push({
        target: `${name} ratio >= ${threshold}`,
        value: s.ratio,
        threshold,
        met: s.ratio >= threshold,
        applies: throughputApplies,
      });
  }
  for (const [name, threshold] of RATE_TARGETS) {
    const s = byName.get(name);
    if (s)
      checks.push({
        target: `${name} >= ${threshold}/s`,
        value: s.real.rps,
        threshold,
        met: s.real.rps >= threshold,
        applies: throughputApplies,
      });
  }
  if (engine === 'pglite' && scenarios.length) {
    const worst = Math.max(...scenarios.map((s) => s.eventLoopP99));
    checks.push({ target: 'event-loop p99 <= 20 ms (every scenario)', value: worst, threshold: 20, met: worst <= 20, applies: true });
  }
  const rssLimit = engine === 'pglite' ? 400 : 150;
  checks.push({
    target: `peak RSS <= ${rssLimit} MB`,
    value: lifetimeRssPeakMb,
    threshold: rssLimit,
    met: lifetimeRssPeakMb <= rssLimit,
    applies: true,
  });
  return checks;
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  // Numbers right-aligned, text (first column, wait events) left-aligned.
  const numeric = header.map((_, i) => i > 0 && rows.every((row) => /^[-\d.,x]*$/.test(row[i])));
  const line = (cells: string[]) => cells.map((cell, i) => (numeric[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function formatScenarios(scenarios: ScenarioResult[]): string {
  const rows = scenarios.map((s) => [
    s.label,
    fixed(s.real.rps),
    fixed(s.real.p50),
    fixed(s.real.p95),
    fixed(s.real.p99),
    fixed(s.ceiling.rps, 0),
    fixed(s.ratio, 3),
    fixed(s.eventLoopP99),
    fixed(s.rssPeakMb, 0),
    fixed(s.real.cpuMsPerRequest, 2),
    fixed(s.real.dbCpuMsPerRequest, 2),
    fixed(s.real.otherCores, 2),
    PEER[s.name] ? `${fixed(s.real.rps / PEER[s.name], 0)}x` : '',
    String(s.failures.non2xx + s.failures.errors + s.failures.timeouts),
  ]);
  const header = [
    'scenario',
    'req/s',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'ceiling/s',
    'ratio',
    'EL p99',
    'RSS MB',
    'srv ms/req',
    'db ms/req',
    'other cores',
    'vs peer',
    'failed',
  ];
  return table(header, rows);
}

/** What the database backends were doing per scenario (PostgreSQL): the top states by share of samples. */
export function formatWaits(scenarios: ScenarioResult[]): string {
  const percent = ([key, share]: [string, number]) => `${key} ${(share * 100).toFixed(0)}%`;
  const rows = scenarios
    .filter((s) => Object.keys(s.real.waits).length > 0)
    .map((s) => {
      const locked = Object.entries(s.real.lockedStatements ?? {})[0];
      const waiting = locked ? `; waiting: ${percent([locked[0].replace(/\s+/g, ' ').slice(0, 60), locked[1]])}` : '';
      return [s.label, Object.entries(s.real.waits).slice(0, 4).map(percent).join(', ') + waiting];
    });
  return rows.length ? table(['scenario', 'database backends (share of non-idle samples)'], rows) : '';
}

/** --payload-ceiling: how each read compares with a server that only has to send its bytes. */
export function formatPayloadCeilings(scenarios: ScenarioResult[]): string {
  const rows = scenarios
    .filter((s) => s.payloadCeiling)
    .map((s) => [
      s.label,
      fixed(s.real.rps),
      fixed(s.payloadCeiling?.rps ?? 0, 0),
      fixed(s.payloadRatio ?? 0, 3),
      fixed((s.real.rounds[0]?.bytesPerResponse ?? 0) / 1024, 1),
    ]);
  return rows.length ? table(['scenario', 'req/s', 'own-bytes ceiling/s', 'ratio', 'KiB/response'], rows) : '';
}

/** Scenarios marked `eventCost`: throughput with events over the same rounds without (the baseline switch). */
export function formatEventCost(scenarios: ScenarioResult[]): string {
  const rows = scenarios
    .filter((s) => s.withoutEvents)
    .map((s) => [
      s.label,
      fixed(s.real.rps),
      fixed(s.withoutEvents?.rps ?? 0),
      fixed(s.eventsRatio ?? 0, 3),
      `${fixed((1 - (s.eventsRatio ?? 0)) * 100)}%`,
      fixed(s.real.dbCpuMsPerRequest, 2),
      fixed(s.withoutEvents?.dbCpuMsPerRequest ?? 0, 2),
      fixed(s.real.cpuMsPerRequest, 2),
      fixed(s.withoutEvents?.cpuMsPerRequest ?? 0, 2),
    ]);
  const header = ['event cost', 'with req/s', 'without req/s', 'ratio', 'cost', 'db ms with', 'db ms w/o', 'srv ms with', 'srv ms w/o'];
  return rows.length ? table(header, rows) : '';
}

/** --baseline: this server against the other checkout's, round by round under the same load. */
export function formatBaseline(scenarios: ScenarioResult[]): string {
  const rows = scenarios
    .filter((s) => s.baseline)
    .map((s) => [
      s.label,
      fixed(s.baseline?.rps ?? 0),
      fixed(s.real.rps),
      fixed(s.baselineRatio ?? 0, 3),
      spreadText(s.paired?.rps ?? []),
      `${fixed(s.baseline?.cpuMsPerRequest ?? 0, 2)} → ${fixed(s.real.cpuMsPerRequest, 2)}`,
      `${fixed(s.baseline?.dbCpuMsPerRequest ?? 0, 2)} → ${fixed(s.real.dbCpuMsPerRequest, 2)}`,
      fixed(s.baseline && s.ceiling.rps > 0 ? s.baseline.rps / s.ceiling.rps : 0, 4),
      fixed(s.ratio, 4),
      s.loadAverage.join(' → '),
    ]);
  const header = [
    'baseline → this',
    'baseline req/s',
    'req/s',
    'vs baseline',
    'per round',
    'srv ms/req',
    'db ms/req',
    'baseline ratio',
    'ratio',
    'load',
  ];
  return rows.length ? table(header, rows) : '';
}

export function formatTargets(checks: TargetCheck[]): string {
  return checks
    .map(
      (c) =>
        `  ${c.met ? 'met   ' : 'MISSED'} ${c.target}: ${fixed(c.value, c.threshold < 1 ? 3 : 1)}${c.applies ? '' : '  (target stated for PostgreSQL at 100k)'}`,
    )
    .join('\n');
}

export function formatResult(result: BenchResult): string {
  const { meta, seed, server } = result;
  const failing = result.scenarios.filter((s) => s.failures.non2xx + s.failures.errors + s.failures.timeouts > 0);
  return [
    `\n${meta.engine} @ ${meta.scale} (${seed.counts.products} products, ${seed.counts.customers} customers, ${seed.counts.orders} orders), ` +
      `${meta.options.connections} connections, ${meta.options.rounds} x ${roundLength(meta.options)} rounds, ` +
      `server ${meta.build} from ${meta.commit ?? '?'}${meta.uncommittedChanges ? ' + uncommitted changes' : ''}`,
    `data: ${seed.shape.skew ? 'skewed (matches among the oldest, then a burst of 10,000 non-matching)' : 'uniform'}` +
      `${seed.shape.otherStore ? ', plus a second store of the same size' : ''}` +
      `${seed.shape.copiesOf ? `, ${seed.shape.copiesOf} products through the API's path and the rest set-based copies` : ''}` +
      `${(seed.shape.stores ?? 1) > 1 ? `, ${seed.shape.stores} stores (the others copies of this one${seed.shape.alone ? '; and this store alone, a second server' : ''})` : ''}; ` +
      `search "${seed.searchTerm}" matches ${seed.searchMatches} products, "${seed.wideSearchTerm}" ${seed.wideSearchMatches}; smart collection ${seed.smartCollectionMatches}; price sort page ${seed.pricePage}; ` +
      `bulk rows identical to createProduct's: ${seed.fidelity.identical}`,
    formatScenarios(result.scenarios),
    formatWaits(result.scenarios),
    formatPayloadCeilings(result.scenarios),
    formatEventCost(result.scenarios),
    seed.shape.alone ? formatAmongAlone(result.scenarios, seed.shape.stores ?? 1) : formatBaseline(result.scenarios),
    formatWebhookDelivery(result.webhooks),
    ...formatDecay(result.decay),
    ...formatBulk(result.bulk, result.scenarios.find((s) => s.name === 'create-product')?.real.rps),
    `server RSS: idle ${fixed(server.idleRssMb, 0)} MB, peak ${fixed(server.lifetimeRssPeakMb, 0)} MB (startup ${fixed(server.startupRssPeakMb, 0)} MB); ` +
      `idle ${JSON.stringify(server.idle)}, end ${JSON.stringify(server.end)}; the bare ceiling process peaks at ${fixed(Math.max(0, ...result.scenarios.map((s) => s.ceilingRssPeakMb)), 0)} MB`,
    ...(server.baseline
      ? [
          `${seed.shape.alone ? 'the server on the store alone' : 'baseline server'} RSS: idle ${fixed(server.baseline.idleRssMb, 0)} MB, peak ${fixed(server.baseline.lifetimeRssPeakMb, 0)} MB (startup ${fixed(server.baseline.startupRssPeakMb, 0)} MB); ` +
            `idle ${JSON.stringify(server.baseline.idle)}, end ${JSON.stringify(server.baseline.end)}`,
        ]
      : []),
    ...(result.heapSnapshots?.length ? [`heap snapshots: ${result.heapSnapshots.join(', ')}`] : []),
    ...(failing.length
      ? [`FAILED requests in: ${failing.map((s) => `${s.name} ${JSON.stringify(s.failures.statusCodes)}`).join('; ')}`]
      : []),
    'targets:',
    formatTargets(result.targets),
  ].join('\n');
}

export function writeResult(dir: string, name: string, result: unknown): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}
