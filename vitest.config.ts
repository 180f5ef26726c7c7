import { defineConfig } from 'vitest/config';

// API tests run once per engine: always on the embedded PGlite, and on PostgreSQL when
// TEST_DATABASE_URL is set (the run creates and drops its own database there).
const engines = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

export default defineConfig({
  test: {
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.unit.test.ts'] },
      },
      // Black-box tests start real server processes (and a throwaway PostgreSQL cluster) on their own.
      { extends: true, test: { name: 'system', include: ['test/**/*.system.test.ts'] } },
      // The benchmark's smoke run: the bench harness end to end at 1k products, one short round per side.
      { extends: true, test: { name: 'bench', include: ['bench/**/*.test.ts'] } },
      ...engines.map((engine) => ({
        extends: true,
        test: {
          name: engine,
          include: ['src/**/*.test.ts'],
          exclude: ['src/**/*.unit.test.ts'],
          env: { TEST_ENGINE: engine },
        },
      })),
    ],
  },
});
