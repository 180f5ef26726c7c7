import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

/**
 * A V8 .cpuprofile reduced to where the time goes: self time per function and per package/area,
 * so docs/performance.md can cite numbers without a flame-graph viewer.
 * Usage: npx tsx bench/profile.ts <file.cpuprofile> [top]
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  /** share of samples spent idle (the thread waiting) */
  idleShare: number;
  functions: { name: string; selfMs: number; share: number }[];
  areas: { area: string; selfMs: number; share: number }[];
}

const ROOT = new URL('..', import.meta.url).pathname;

/** Which package or part of the service a frame belongs to. */
export function areaOf(url: string, functionName: string): string {
  if (functionName === '(idle)' || functionName === '(program)' || functionName === '(garbage collector)') return functionName;
  if (!url) return '(native)';
  const path = url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1];
  if (path.startsWith('node:')) return `node:${path.slice(5).split('/')[0]}`;
  const local = relative(ROOT, path);
  if (!local.startsWith('..')) return local.split('/').slice(0, 2).join('/');
  return path;
}

function selfTimes(profile: CpuProfile): Map<number, number> {
  const byNode = new Map<number, number>();
  profile.samples.forEach((nodeId, index) => {
    byNode.set(nodeId, (byNode.get(nodeId) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  return byNode;
}

function top(map: Map<string, number>, total: number, count: number) {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, ms]) => ({ key, selfMs: Math.round(ms), share: Math.round((ms / total) * 1000) / 1000 }));
}

export function summarizeProfile(file: string, count = 20): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const functions = new Map<string, number>();
  const areas = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [nodeId, ms] of selfTimes(profile)) {
    const frame = nodes.get(nodeId)?.callFrame;
    if (!frame) continue;
    total += ms;
    if (frame.functionName === '(idle)') idle += ms;
    const area = areaOf(frame.url, frame.functionName);
    const name = `${frame.functionName || '(anonymous)'} ${area}:${frame.lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
    areas.set(area, (areas.get(area) ?? 0) + ms);
  }
  const busy = total - idle;
  return {
    totalMs: Math.round(total),
    idleShare: total ? Math.round((idle / total) * 1000) / 1000 : 0,
    // Shares are of the busy (non-idle) time: what the CPU did while it was working.
    functions: top(functions, busy, count)
      .filter((entry) => !entry.key.startsWith('(idle)'))
      .map(({ key, selfMs, share }) => ({ name: key, selfMs, share })),
    areas: top(areas, busy, count)
      .filter((entry) => entry.key !== '(idle)')
      .map(({ key, selfMs, share }) => ({ area: key, selfMs, share })),
  };
}

export function formatProfile(summary: ProfileSummary, rows = 12): string {
  const pct = (share: number) => `${(share * 100).toFixed(1)}%`.padStart(6);
  const lines = [`profile: ${summary.totalMs} ms sampled, ${pct(summary.idleShare)} idle; busy time by area:`];
  for (const area of summary.areas.slice(0, rows)) lines.push(`  ${pct(area.share)}  ${area.area}`);
  lines.push('  top functions (self time):');
  for (const fn of summary.functions.slice(0, rows)) lines.push(`  ${pct(fn.share)}  ${fn.name}`);
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '\0')) {
  const [file, count] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: npx tsx bench/profile.ts <file.cpuprofile> [rows]\n');
    process.exit(2);
  }
  process.stdout.write(`${formatProfile(summarizeProfile(file, 40), Number(count ?? 20))}\n`);
}
