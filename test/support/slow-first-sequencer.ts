import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The suite's slowest files, slowest first (per-file durations of a fresh-clone CI run: docs/performance-history/ci-runs.md).
 * vitest runs the files it has timings for longest first, but a fresh clone (CI) has none and runs larger
 * files first: these small but long files then started last, and a lane ended with one of them running alone.
 */
const SLOWEST = [
  'test/csv-memory.system.test.ts',
  'src/imports/csv-large.test.ts',
  'src/imports/dry-run.property.test.ts',
  'bench/bench.smoke.test.ts',
  'test/webhooks-kill.system.test.ts',
  'test/cli.system.test.ts',
  'src/cli/cli.test.ts',
  'src/db/database.test.ts',
  'test/process-signals.system.test.ts',
  'src/webhooks/order-replay.test.ts',
  'src/http/fuzz.test.ts',
  'src/webhooks/webhooks.test.ts',
  'src/http/http.test.ts',
];

const rank = (spec: TestSpecification) => {
  const at = SLOWEST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
  return at === -1 ? SLOWEST.length : at;
};

/** vitest's own order (its timings when it has them), with the known slowest files moved to the front. */
export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((spec, at) => ({ spec, at }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.at - b.at)
      .map(({ spec }) => spec);
  }
}
