import { readFileSync } from 'node:fs';
import type { ScenarioResult } from './measure.js';
import { roundLength } from './options.js';
import { type BenchResult, PEER } from './report.js';

/**
 * A results file as Markdown tables (docs/performance.md), so the document is refreshed from a
 * run instead of retyped. Usage: npx tsx bench/markdown.ts bench/results/postgres-100k.json [before.json]
 * With a second file, a before/after column pair of req/s per scenario.
 */

const n = (value: number | undefined, digits = 1) => (value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits));
const int = (value: number) => Math.round(value).toLocaleString('en-US');

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

function scenarioRow(s: ScenarioResult): string {
  return row([
    s.label,
    int(s.real.rps),
    n(s.real.p50),
    n(s.real.p95),
    n(s.real.p99),
    int(s.ceiling.rps),
    n(s.ratio, 3),
    s.payloadRatio === undefined ? '–' : n(s.payloadRatio, 3),
    n(s.eventLoopP99),
    n(s.rssPeakMb, 0),
    n(s.real.cpuMsPerRequest, 2),
    s.real.dbCpuMsPerRequest > 0 ? n(s.real.dbCpuMsPerRequest, 2) : '–',
    PEER[s.name] ? `${int(s.real.rps / PEER[s.name])}×` : '',
  ]);
}

export function markdownTable(result: BenchResult): string {
  const header = [
    'scenario',
    'req/s',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'ceiling req/s',
    'ratio',
    'ratio to own bytes',
    'event loop p99 ms',
    'peak RSS MB',
    'server CPU ms/req',
    'db CPU ms/req',
    'vs peer',
  ];
  const { meta, server } = result;
  return [
    `${meta.engine}, ${meta.scale} products, ${meta.options.rounds} × ${roundLength(meta.options)} rounds, ${meta.options.connections} connections, ` +
      `server ${meta.build} from ${meta.commit ?? '?'}${meta.uncommittedChanges ? ' + uncommitted changes' : ''}, ${meta.date.slice(0, 16)}Z`,
    '',
    row(header),
    row(header.map((_, i) => (i === 0 ? '---' : '---:'))),
    ...result.scenarios.map(scenarioRow),
    '',
    `Server RSS: idle ${n(server.idleRssMb, 0)} MB, peak ${n(server.lifetimeRssPeakMb, 0)} MB.`,
  ].join('\n');
}

export function markdownBeforeAfter(before: BenchResult, after: BenchResult): string {
  const lines = [
    row(['scenario', `req/s ${before.meta.commit ?? 'before'}`, `req/s ${after.meta.commit ?? 'after'}`, 'change']),
    row(['---', '---:', '---:', '---:']),
  ];
  for (const s of after.scenarios) {
    const old = before.scenarios.find((b) => b.name === s.name);
    if (!old) continue;
    lines.push(row([s.label, int(old.real.rps), int(s.real.rps), `${n(s.real.rps / old.real.rps, 2)}×`]));
  }
  return lines.join('\n');
}

if (process.argv[1]?.endsWith('markdown.ts')) {
  const [file, beforeFile] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: npx tsx bench/markdown.ts <results.json> [before.json]\n');
    process.exit(2);
  }
  const result = JSON.parse(readFileSync(file, 'utf8')) as BenchResult;
  process.stdout.write(`${markdownTable(result)}\n`);
  if (beforeFile) process.stdout.write(`\n${markdownBeforeAfter(JSON.parse(readFileSync(beforeFile, 'utf8')) as BenchResult, result)}\n`);
}
