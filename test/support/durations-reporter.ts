import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Where a test run's time went, per file and per project: written as JSON to TEST_DURATIONS_FILE (if set)
 * and printed, slowest first, at the end of the run. Times are wall-clock milliseconds in the worker:
 * `setup` is the setup files (the postgres project's database copy), `collect` importing the file and what
 * it imports, `tests` the tests with their hooks. On a busy machine all three stretch together.
 * Used by .ci/run (docs/testing.md): `--reporter=./test/support/durations-reporter.ts`.
 */
export default class DurationsReporter implements Reporter {
  private started = Date.now();

  onInit(): void {
    this.started = Date.now();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const files = modules.map((module) => {
      const d = module.diagnostic();
      const ms = (n: number) => Math.round(n);
      return {
        project: module.project.name,
        file: module.moduleId.replace(`${process.cwd()}/`, ''),
        state: module.state(),
        setup: ms(d.setupDuration),
        collect: ms(d.collectDuration),
        tests: ms(d.duration),
        total: ms(d.setupDuration + d.collectDuration + d.duration),
      };
    });
    files.sort((a, b) => b.total - a.total);
    const projects: Record<string, { files: number; setup: number; collect: number; tests: number; total: number }> = {};
    for (const f of files) {
      const p = projects[f.project] ?? { files: 0, setup: 0, collect: 0, tests: 0, total: 0 };
      projects[f.project] = p;
      p.files++;
      p.setup += f.setup;
      p.collect += f.collect;
      p.tests += f.tests;
      p.total += f.total;
    }
    const report = { wallMs: Date.now() - this.started, projects, files };
    const out = process.env.TEST_DURATIONS_FILE;
    if (out) {
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, `${JSON.stringify(report, null, 1)}\n`);
    }
    const s = (n: number) => `${(n / 1000).toFixed(1)} s`;
    console.log(`\nDurations (run ${s(report.wallMs)} wall; per file: setup + collect + tests, summed over parallel workers)`);
    for (const [name, p] of Object.entries(projects)) {
      console.log(`  ${name}: ${p.files} files, ${s(p.total)} (setup ${s(p.setup)}, collect ${s(p.collect)}, tests ${s(p.tests)})`);
    }
    console.log('  slowest files:');
    for (const f of files.slice(0, 15)) console.log(`    ${s(f.total).padStart(8)}  |${f.project}| ${f.file}`);
  }
}
