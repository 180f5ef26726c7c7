import { collectionIdByHandle } from '../collections/index.js';
import { setSavepoint, type Tx } from '../db/index.js';
import type { ImportLineHandler, ImportLineOptions } from '../shared/index.js';
import { suppliedSlug } from '../shared/index.js';

/**
 * The manual collections a CSV line joins (WooCommerce's Categories, `A > B, C`): each collection of each
 * path is found by its handle (the slug of its path: `a`, `a-b`) or created once, under its parent, through
 * the collections' import handler (the same checks and events as POST /collections). The line then names
 * the last collection of each path in `selectedCollections`. Runs under a savepoint: a failure leaves
 * nothing and is the line's error.
 */
export async function joinCollections(
  trx: Tx,
  storeId: string,
  parsed: { value: unknown; text: string },
  paths: readonly (readonly string[])[],
  createCollection: ImportLineHandler,
  options: ImportLineOptions,
): Promise<{ value: unknown; text: string }> {
  const point = await setSavepoint(trx, 'import_collections', [options.afterWork]);
  try {
    const ids: string[] = [];
    for (const path of paths) {
      let parent: string | undefined;
      for (let depth = 1; depth <= path.length; depth++) {
        const handle = suppliedSlug(path.slice(0, depth).join(' '));
        let id = await collectionIdByHandle(trx, storeId, handle);
        if (!id) {
          const line = { title: path[depth - 1], handle, collectionType: 'manual', ...(parent ? { parentCollection: parent } : {}) };
          await createCollection(trx, storeId, line, JSON.stringify(line), options);
          id = await collectionIdByHandle(trx, storeId, handle);
        }
        parent = id;
      }
      if (parent && !ids.includes(parent)) ids.push(parent);
    }
    await point.release();
    const value = { ...(parsed.value as Record<string, unknown>), selectedCollections: ids };
    return { value, text: JSON.stringify(value) };
  } catch (error) {
    await point.rollBack();
    throw error;
  }
}
