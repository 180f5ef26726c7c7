import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { CsvImportResult } from './csv-import.js';
import type { BenchResult } from './report.js';
import { SCENARIOS } from './scenarios.js';

/**
 * `npm run bench -- --smoke` end to end, so the harness never rots: every scenario must run against
 * the real server and produce numbers and a results file. No timing is asserted (CI machines vary);
 * a scenario whose requests fail is a broken scenario or endpoint, and that is asserted.
 */

const ROOT = new URL('..', import.meta.url).pathname;
const out = mkdtempSync(join(tmpdir(), 'storefront-bench-smoke-'));

function runSmoke(...extra: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'bench/cli.ts', '--smoke', '--engine', 'pglite', '--out', out, ...extra],
      // ~50 s alone; generous limits because npm test runs other files beside it on the same cores. Its
      // databases start as copies of the run's migrated PGlite template (bench/database.ts): initdb and the
      // migrations are not what the smoke run is about, and they cost ~10 s of CPU for each of its three.
      {
        cwd: ROOT,
        maxBuffer: 16 * 1024 * 1024,
        timeout: 400_000,
        env: { ...process.env, BENCH_PGLITE_TEMPLATE: inject('pgliteTemplate') },
      },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);

describe('npm run bench -- --smoke', () => {
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('runs every scenario against the real server and writes the results', { timeout: 420_000 }, async () => {
    const { code, output } = await runSmoke();
    expect(code, output).toBe(0);
    expect(output).toContain('ceiling/s');
    const result = JSON.parse(readFileSync(join(out, 'pglite-1k.json'), 'utf8')) as BenchResult;

    expect(result.meta).toMatchObject({ engine: 'pglite', scale: '1k', products: 1000 });
    expect(result.seed.counts).toEqual({ products: 1000, customers: 500, orders: 2000 });
    expect(result.seed.fidelity).toMatchObject({ identical: true, differences: [] });
    expect(result.seed.searchMatches).toBe(10);
    expect(result.scenarios.map((s) => s.name)).toEqual(SCENARIOS.map((s) => s.name));
    for (const s of result.scenarios) {
      expect(s.failures, s.name).toMatchObject({ non2xx: 0, errors: 0, timeouts: 0 });
      expect(s.real.rounds.length, s.name).toBe(1);
      expect(s.real.rounds[0].ok, s.name).toBeGreaterThan(0);
      expect(s.ceiling.rps, s.name).toBeGreaterThan(0);
      for (const value of [s.real.rps, s.real.p50, s.real.p99, s.ratio, s.eventLoopP99, s.rssPeakMb, s.real.cpuMsPerRequest]) {
        expect(isNumber(value), `${s.name}: ${value}`).toBe(true);
      }
    }
    // The event cost: the marked writes also ran with appending switched off, round for round.
    for (const s of result.scenarios.filter((scenario) => SCENARIOS.find((known) => known.name === scenario.name)?.eventCost)) {
      expect(s.withoutEvents?.rounds.length, s.name).toBe(1);
      expect(isNumber(s.eventsRatio), s.name).toBe(true);
    }
    expect(result.webhooks).toMatchObject({ deliveries: expect.any(Number), duplicates: 0 });
    expect(result.webhooks?.receivedPerSecond).toBeGreaterThan(0);
    // Bulk: the smoke file of 200 products, imported, imported again (every line matched), then exported.
    expect(result.bulk?.import).toMatchObject({ created: 200, updated: 0, failed: 0 });
    expect(result.bulk?.reimport).toMatchObject({ created: 0, updated: 200, failed: 0 });
    // the export holds the seeded and imported products, and those the create scenarios made
    expect(result.bulk?.export?.lines).toBeGreaterThanOrEqual(1000 + 200);
    expect(result.server.lifetimeRssPeakMb).toBeGreaterThan(0);
    expect(result.targets.map((t) => t.target)).toContain('event-loop p99 <= 20 ms (every scenario)');
  });

  it('--csv-import: a Shopify CSV and the NDJSON file of its lines, each imported on a fresh database', { timeout: 420_000 }, async () => {
    const { code, output } = await runSmoke('--csv-import');
    expect(code, output).toBe(0);
    const result = JSON.parse(readFileSync(join(out, 'pglite-csv-import-300.json'), 'utf8')) as CsvImportResult;
    expect(result.meta).toMatchObject({ engine: 'pglite', products: 300 });
    expect(result.pairs).toHaveLength(1);
    for (const run of [result.pairs[0].csv, result.pairs[0].ndjson]) {
      // every product created from either file: the CSV reads as exactly the NDJSON file's lines
      expect(run, run.format).toMatchObject({ created: 300, failed: 0 });
      for (const value of [run.perSecond, run.cpuMsPerProduct, run.rssBeforeMb, run.rssPeakMb])
        expect(value, run.format).toBeGreaterThan(0);
    }
    expect(isNumber(result.ratio) && (result.ratio as number) > 0).toBe(true);
    expect(result.targets.map((t) => t.target)).toEqual([expect.stringContaining('0.8'), expect.stringContaining('100 MB')]);
  });
});
