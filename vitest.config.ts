import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/support/slow-first-sequencer.js';

// API tests run once per engine: always on the embedded PGlite, and on PostgreSQL when
// TEST_DATABASE_URL is set (each test file gets its own copy of a migrated template database).
const engines = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

// What every project shares. Not `extends: true`: the projects would inherit the root's globalSetup
// and run it again each (initdb and migrations once per project, one after the other, before any test).
// Timeouts catch hangs; they are generous because a busy machine runs a healthy test several times slower.
// Each file gets fresh modules and mocks (`isolate`) in a worker process that the pool reuses (below).
const shared = { testTimeout: 60_000, hookTimeout: 120_000, pool: 'forks', poolOptions: { forks: { isolate: true } } } as const;

export default defineConfig({
  test: {
    ...shared,
    // Once per run: the migrated PGlite data dir and PostgreSQL database that test files copy.
    globalSetup: ['./test/global-setup.ts'],
    // The known slowest files first, so that no lane ends with one of them running alone.
    sequence: { sequencer: SlowFirstSequencer },
    // Test files wait on databases, timers and child processes much of the time: two at a time even on two
    // cores (vitest's default there is one). At most four: each file's app holds up to ten PostgreSQL connections.
    maxWorkers: Math.min(4, Math.max(2, availableParallelism() - 1)),
    // Worker processes are reused from file to file (the projects' `isolate` still gives every file fresh
    // modules and mocks; node_modules stay loaded): starting a process and loading Fastify, PGlite and pg
    // again for each file cost ~2.5 s of CPU per file, half of a small file's whole cost.
    poolOptions: { forks: { isolate: false } },
    projects: [
      // test/: the test tooling's own pure logic (the sequencer's shards).
      { test: { ...shared, name: 'unit', include: ['src/**/*.unit.test.ts', 'test/**/*.unit.test.ts'] } },
      // Black-box tests start real server processes (and a throwaway PostgreSQL cluster) on their own.
      { test: { ...shared, name: 'system', include: ['test/**/*.system.test.ts'] } },
      // The benchmark's smoke run: the bench harness end to end at 1k products, one short round per side.
      { test: { ...shared, name: 'bench', include: ['bench/**/*.test.ts'] } },
      ...engines.map((engine) => ({
        test: {
          ...shared,
          name: engine,
          include: ['src/**/*.test.ts'],
          exclude: ['src/**/*.unit.test.ts'],
          env: { TEST_ENGINE: engine },
          setupFiles: engine === 'postgres' ? ['./test/support/file-database.ts'] : [],
        },
      })),
    ],
  },
});
