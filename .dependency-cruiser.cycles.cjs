/**
 * Folders of src/ depend on each other in one direction only, at run time. Type-only imports are left out:
 * a few circles of types remain (an import line's interface between products, collections, customers,
 * orders, imports and platforms), which the compiler erases. The table types and the request context's types
 * are no longer among them: src/db/ imports nothing above it (rule db-imports-nothing-above), src/http only
 * config, errors, db, shared and idempotency (rule http-imports-only-below), both in .dependency-cruiser.cjs.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment: 'Folders depend on each other in one direction only.',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-file-cycles-in-platforms',
      severity: 'error',
      comment:
        'The platform layouts are read file by file: a layout file never imports one that imports it back (the WooCommerce products and variations files share file.ts instead).',
      from: { path: '^src/platforms/' },
      to: { circular: true },
    },
  ],
  options: {
    includeOnly: '^src/',
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
};
