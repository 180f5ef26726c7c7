import type { ScenarioResult } from './measure.js';

/**
 * Two servers measured in the same rounds (--baseline, --alone): the ratio of this server to the other taken round
 * by round, of requests/s and of CPU per request (server + database), so a round the machine slowed for both sides
 * cancels out, and the spread over the rounds says how far the medians can be read.
 */

/** What one round of one side contributes: its successful requests/s and its CPU (server + database) per request. */
export interface RoundCost {
  rps: number;
  cpuMsPerRequest: number;
}

/** Per round, this side over the other (rounds paired by number). */
export interface PairedRatios {
  rps: number[];
  cpu: number[];
}

export function pairedRatios(self: RoundCost[], other: RoundCost[]): PairedRatios {
  const rounds = Math.min(self.length, other.length);
  const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
  return {
    rps: Array.from({ length: rounds }, (_, k) => ratio(self[k].rps, other[k].rps)),
    cpu: Array.from({ length: rounds }, (_, k) => ratio(self[k].cpuMsPerRequest, other[k].cpuMsPerRequest)),
  };
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

function middle(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** "median [min–max]" of the per-round ratios */
export function spreadText(values: number[]): string {
  if (values.length === 0) return '-';
  return `${fixed(middle(values), 3)} [${fixed(Math.min(...values), 2)}–${fixed(Math.max(...values), 2)}]`;
}

/** --alone: the store among many tenants against the same store alone, per scenario. */
export function formatAmongAlone(scenarios: ScenarioResult[], stores: number): string {
  const rows = scenarios
    .filter((s) => s.baseline && s.paired)
    .map((s) => {
      const alone = s.baseline as NonNullable<ScenarioResult['baseline']>;
      const paired = s.paired as PairedRatios;
      return [
        s.label,
        `${fixed(alone.rps, 0)} → ${fixed(s.real.rps, 0)}`,
        spreadText(paired.rps),
        `${fixed(alone.cpuMsPerRequest, 2)}+${fixed(alone.dbCpuMsPerRequest, 2)} → ${fixed(s.real.cpuMsPerRequest, 2)}+${fixed(s.real.dbCpuMsPerRequest, 2)}`,
        spreadText(paired.cpu),
        `${fixed(s.baselineRatio && s.ceiling.rps > 0 ? alone.rps / s.ceiling.rps : 0, 4)} / ${fixed(s.ratio, 4)}`,
        `${fixed(s.baselineRssPeakMb ?? 0, 0)} / ${fixed(s.rssPeakMb, 0)}`,
        s.loadAverage.join(' → '),
      ];
    });
  if (rows.length === 0) return '';
  const header = [
    `alone → among ${stores} stores`,
    'req/s',
    'among/alone req/s per round',
    'srv+db ms/req',
    'among/alone CPU/req per round',
    'vs ceiling',
    'peak RSS MB',
    'load',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
