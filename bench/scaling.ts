import type { BenchOptions, ScaleName } from './options.js';
import type { BenchResult } from './report.js';
import { runBench } from './run.js';
import { SCALING_SCENARIOS } from './scenarios.js';

/** `--scaling`: the same reads at 1k, 10k and 100k products, each on a freshly seeded database. */

export const SCALING_SCALES: ScaleName[] = ['1k', '10k', '100k'];
/** Issue target: get-by-id and list page 1 lose no more than 20% of their throughput from 1k to 100k. */
const MAX_LOSS = 0.2;
const GUARDED = ['get-product', 'list-products'];

export interface ScalingResult {
  engine: string;
  runs: BenchResult[];
  changes: { scenario: string; scale: string; rps: number; change: number; p99: number; ratio: number }[];
  targets: { target: string; value: number; met: boolean }[];
}

export async function runScaling(options: BenchOptions, scales: ScaleName[] = SCALING_SCALES): Promise<ScalingResult> {
  const runs: BenchResult[] = [];
  for (const scale of scales) {
    process.stderr.write(`\n== scaling: ${scale}\n`);
    runs.push(await runBench(options, scale, options.scenarios.length ? options.scenarios : SCALING_SCENARIOS));
  }
  const base = runs[0];
  const changes = runs.flatMap((run) =>
    run.scenarios.map((s) => {
      const first = base.scenarios.find((b) => b.name === s.name);
      const change = first && first.real.rps > 0 ? s.real.rps / first.real.rps - 1 : 0;
      return { scenario: s.name, scale: run.meta.scale, rps: s.real.rps, change, p99: s.real.p99, ratio: s.ratio };
    }),
  );
  const last = runs[runs.length - 1].meta.scale;
  const targets = GUARDED.flatMap((name) => {
    const row = changes.find((c) => c.scenario === name && c.scale === last);
    return row
      ? [
          {
            target: `${name} loses <= ${MAX_LOSS * 100}% from ${base.meta.scale} to ${last}`,
            value: row.change,
            met: row.change >= -MAX_LOSS,
          },
        ]
      : [];
  });
  return { engine: options.engine, runs, changes, targets };
}

export function formatScaling(result: ScalingResult): string {
  const scales = result.runs.map((run) => run.meta.scale);
  const names = [...new Set(result.changes.map((c) => c.scenario))];
  const cell = (name: string, scale: string) => {
    const c = result.changes.find((x) => x.scenario === name && x.scale === scale);
    if (!c) return '-';
    const change = scale === scales[0] ? '' : ` (${c.change >= 0 ? '+' : ''}${(c.change * 100).toFixed(0)}%)`;
    return `${c.rps.toFixed(0)}/s p99 ${c.p99.toFixed(1)}ms r ${c.ratio.toFixed(2)}${change}`;
  };
  const width = 40;
  const lines = [`scaling on ${result.engine}: req/s, p99, ratio to ceiling (change from ${scales[0]})`];
  lines.push(['scenario'.padEnd(16), ...scales.map((s) => s.padEnd(width))].join(''));
  for (const name of names) lines.push([name.padEnd(16), ...scales.map((s) => cell(name, s).padEnd(width))].join(''));
  for (const t of result.targets) lines.push(`  ${t.met ? 'met   ' : 'MISSED'} ${t.target}: ${(t.value * 100).toFixed(0)}%`);
  return lines.join('\n');
}
