/** The public surface of src/imports: POST /imports, the import job, the line-handler interface. */
import type { App, AppContext } from '../http/index.js';
import type { JobKinds } from '../jobs/index.js';
import { startPurgeLoop } from '../shared/index.js';
import { importHandlers } from './handlers.js';
import { type ImportContext, importJobKind } from './import-job.js';
import { registerImportRoutes } from './imports.routes.js';
import { ORPHAN_AFTER_MS, orphanUploadPurge } from './orphan-uploads.js';
import type { UploadStore } from './upload.js';

export { IMPORT_RESOURCES } from './handlers.js';
export type { ImportContext, ImportHandlers } from './import-job.js';
export { purgeOrphanUploads } from './orphan-uploads.js';
export { createUploadStore, type UploadStore } from './upload.js';

/** A batch (one transaction): at most this many lines, and about this long (docs/imports.md, "Batches and resume"). */
export const IMPORT_BATCH_LINES = 100;
export const IMPORT_BATCH_MS = 250;

/** The job kinds this folder runs: `import`. */
export function importJobKinds(
  ctx: ImportContext,
  uploads: UploadStore,
  log: { error(object: object, message: string): void },
  batch = { lines: IMPORT_BATCH_LINES, ms: IMPORT_BATCH_MS },
  onLinesCommitted?: (lines: number) => void,
): JobKinds {
  return {
    import: importJobKind({
      uploads,
      maxLineBytes: ctx.config.bodyLimit,
      handlers: importHandlers(ctx),
      batchLines: batch.lines,
      batchMs: batch.ms,
      log,
      afterWork: ctx.afterWork,
      onLinesCommitted,
    }),
  };
}

/** POST /imports and the purge of uploads no job names (orphan-uploads.ts). */
export async function registerImports(api: App, ctx: AppContext, uploads: UploadStore): Promise<void> {
  await registerImportRoutes(api, ctx, importHandlers(ctx), uploads);
  // no request still arriving is older than its timeout: a file's upload stalled that long is over
  const afterMs = Math.max(ORPHAN_AFTER_MS, ctx.config.requestTimeoutMs);
  const stopPurge = startPurgeLoop(orphanUploadPurge(ctx.db, uploads, afterMs), api.log);
  api.addHook('onClose', async () => stopPurge());
}
