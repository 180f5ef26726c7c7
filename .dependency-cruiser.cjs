/**
 * Folder rules of src/ (docs/architecture.md): a folder is used through its index.ts only, type imports
 * included. Tests and bench/ may reach inside. Folder cycles: .dependency-cruiser.cycles.cjs.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const notTests = '\\.test\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-deep-imports',
      severity: 'error',
      comment: 'Import another folder through its index.ts (its public surface), never a file inside it.',
      from: { path: '^src/([^/]+)/', pathNot: notTests },
      to: { path: '^src/[^/]+/', pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$'] },
    },
    {
      name: 'no-deep-imports-from-root',
      severity: 'error',
      comment: 'Files at the top of src/ (app, cluster, server, config, errors) use folders through their index.ts.',
      from: { path: '^src/[^/]+\\.ts$', pathNot: notTests },
      to: { path: '^src/[^/]+/', pathNot: '^src/[^/]+/index\\.ts$' },
    },
    {
      name: 'domain-never-imports-http',
      severity: 'error',
      comment:
        'Services, SQL, import handlers, jobs and stored documents are plain functions over a database handle, called by routes, jobs and scripts alike: they never import src/http/ (its pure helpers live in src/shared/). Routes files and folder indexes (which register routes) may.',
      from: {
        path: [
          '\\.service\\.ts$',
          '\\.sql\\.ts$',
          '\\.import[^/]*\\.ts$',
          '\\.documents\\.ts$',
          '^src/jobs/',
          '^src/imports/',
          '^src/media/ingest\\.ts$',
        ],
        pathNot: [notTests, '\\.routes\\.ts$', '/index\\.ts$'],
      },
      to: { path: '^src/http/' },
    },
    {
      name: 'http-imports-only-below',
      severity: 'error',
      comment:
        'src/http is the plumbing every route stands on: it imports only config, errors, db, shared and idempotency, type imports included. The folders whose routes use it (events, media, api-docs, every resource) are never imported back, so the app context and its users form no circle; what http needs of them is a contract in src/shared (AfterWork, MediaStore, API_PREFIX).',
      from: { path: '^src/http/', pathNot: notTests },
      to: { path: '^src/', pathNot: ['^src/http/', '^src/(db|shared|idempotency)/', '^src/(config|errors)\\.ts$'] },
    },
    {
      name: 'db-imports-nothing-above',
      severity: 'error',
      comment:
        "src/db/ is the ground floor every folder stands on: it imports nothing else of src/, type imports included. Kysely's DB type is generated from the migrated schema (src/db/schema.generated.ts, `npm run db:types`), not composed from the resources.",
      from: { path: '^src/db/', pathNot: notTests },
      to: { path: '^src/', pathNot: '^src/db/' },
    },
    {
      name: 'client-stands-alone',
      severity: 'error',
      comment: "src/client is for the API's users: it imports nothing from the rest of src/ (only openapi-fetch and itself).",
      from: { path: '^src/client/' },
      to: { path: '^src/', pathNot: '^src/client/' },
    },
    {
      name: 'tracing-sdk-on-demand',
      severity: 'error',
      comment:
        'src/tracing/provider.ts holds the OpenTelemetry SDK and its exporters (~9 MB of RSS): startTracing loads it with import() when traces are wanted, never a static import (biome.json keeps the SDK packages out of every other file).',
      from: {},
      to: { path: '^src/tracing/provider\\.ts$', dependencyTypesNot: ['dynamic-import'] },
    },
    {
      name: 'docs-markdown-on-demand',
      severity: 'error',
      comment:
        "src/api-docs/docs-pages.ts renders the guide's Markdown with marked (~0.3 MB of a server's live heap, which the old generation is let grow to 1.5x of: issue 42): the docs page loads it with import() at its first visit, never a static import (biome.json keeps marked out of every other file).",
      from: {},
      to: { path: '^src/api-docs/docs-pages\\.ts$', dependencyTypesNot: ['dynamic-import'] },
    },
  ],
  options: {
    includeOnly: '^src/',
    exclude: { path: notTests },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
};
