/** The public surface of src/imports: POST /imports, the import job, the line-handler interface. */
import type { App, AppContext } from '../http/index.js';
import type { JobKinds } from '../jobs/index.js';
import { importHandlers } from './handlers.js';
import { type ImportContext, importJobKind } from './import-job.js';
import { registerImportRoutes } from './imports.routes.js';

export { IMPORT_RESOURCES, type ImportResource } from './handlers.js';
export type { ImportContext, ImportHandlers } from './import-job.js';
export type {
  ImportBatchApplier,
  ImportBatchLine,
  ImportBatchResult,
  ImportHandler,
  ImportLineHandler,
  ImportLineOutcome,
} from './types.js';

/** A batch (one transaction): at most this many lines, and about this long (docs/imports.md, "Batches and resume"). */
export const IMPORT_BATCH_LINES = 100;
export const IMPORT_BATCH_MS = 250;

/** The job kinds this folder runs: `import`. */
export function importJobKinds(
  ctx: ImportContext,
  log: { error(object: object, message: string): void },
  batch = { lines: IMPORT_BATCH_LINES, ms: IMPORT_BATCH_MS },
): JobKinds {
  return {
    import: importJobKind({
      dataDir: ctx.config.dataDir,
      maxLineBytes: ctx.config.bodyLimit,
      handlers: importHandlers(ctx),
      batchLines: batch.lines,
      batchMs: batch.ms,
      log,
    }),
  };
}

export async function registerImports(api: App, ctx: AppContext): Promise<void> {
  await registerImportRoutes(api, ctx, importHandlers(ctx));
}
