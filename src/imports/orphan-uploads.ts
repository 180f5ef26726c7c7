import type { Db } from '../db/index.js';
import { selectNamedFiles } from '../jobs/index.js';
import { type PurgeJob, purgeOnce } from '../shared/index.js';
import { storeOfUpload, type UploadStore } from './upload.js';

/**
 * Uploads no job names (docs/imports.md, "What is checked before the body", "Uploads no job names"): a
 * request whose client went away right after its last byte, or a process that died between storing a body
 * and creating its job, leaves a stored upload nothing will read. The request removes its own upload when
 * it answers without a job (imports.routes.ts); this purge, in every process, removes what that missed:
 * an upload stored completely more than ORPHAN_AFTER_MS ago that no job of its store names. An upload a
 * job names stays until the job ends (the job removes it) or is purged (jobs/purge.ts).
 */

/** Longer than any request takes from its body's last byte to its job's commit. */
export const ORPHAN_AFTER_MS = 5 * 60_000;
const EVERY_MS = 5 * 60_000;

/** Removes at most `limit` uploads stored before `before` that no job names; returns how many it removed. */
export async function removeOrphanUploads(db: Db, uploads: UploadStore, before: Date, limit: number): Promise<number> {
  const byStore = new Map<string, string[]>();
  for await (const name of uploads.finished(before)) {
    const storeId = storeOfUpload(name);
    if (storeId !== undefined) byStore.set(storeId, [...(byStore.get(storeId) ?? []), name]);
  }
  let removed = 0;
  for (const [storeId, names] of byStore) {
    const named = await selectNamedFiles(db, storeId, names);
    for (const name of names) {
      if (named.has(name) || removed >= limit) continue;
      await uploads.remove(name);
      removed++;
    }
  }
  return removed;
}

/** The purge of orphan uploads, run by the shared purge loop in every process. */
export const orphanUploadPurge = (db: Db, uploads: UploadStore, afterMs = ORPHAN_AFTER_MS): PurgeJob => ({
  name: 'uploads no job names',
  deleteBatch: (size) => removeOrphanUploads(db, uploads, new Date(Date.now() - afterMs), size),
  everyMs: EVERY_MS,
});

/** One tick of it (tests): `afterMs` 0 takes every upload stored so far. */
export const purgeOrphanUploads = (db: Db, uploads: UploadStore, afterMs = ORPHAN_AFTER_MS) =>
  purgeOnce(orphanUploadPurge(db, uploads, afterMs).deleteBatch);
