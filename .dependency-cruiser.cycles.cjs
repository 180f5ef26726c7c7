/**
 * Folders of src/ depend on each other in one direction only, at run time. Type-only imports are left out
 * on purpose: db/tables.ts composes the table types every resource declares beside itself, which is a
 * circle of types that the compiler erases, not of code.
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
  ],
  options: {
    includeOnly: '^src/',
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
};
