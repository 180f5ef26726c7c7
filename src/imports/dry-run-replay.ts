import { setSavepoint, type Tx } from '../db/index.js';
import { toAppError } from '../errors.js';
import type { ImportLineHandler, ImportLineOptions } from '../shared/index.js';
import { joinCollections } from './csv-collections.js';
import type { DryRunKeys } from './dry-run.js';
import { type FileLine, isCsvLine } from './lines.js';

/**
 * A dry run's batch first applies again the lines of earlier (rolled-back) batches that wrote the keys it meets
 * (dry-run.ts), so its lines meet the records a real run's would. Their outcomes were reported with their own
 * batch: here each runs under a savepoint and what it gives is let go (only the database going away is not).
 */
export async function replayEarlier(
  trx: Tx,
  storeId: string,
  keys: DryRunKeys,
  read: readonly { value: unknown }[],
  handler: ImportLineHandler,
  collections: ImportLineHandler | undefined,
  options: ImportLineOptions,
): Promise<void> {
  await keys.replay(
    trx,
    read.map((line) => line.value),
    async ({ text, collections: paths }) => {
      const parsed = { value: JSON.parse(text) as unknown, text };
      const point = await setSavepoint(trx, 'dry_run_replay', [options.afterWork]);
      try {
        const joined = paths && collections ? await joinCollections(trx, storeId, parsed, paths, collections, options) : parsed;
        await handler(trx, storeId, joined.value, joined.text, options);
        await point.release();
      } catch (error) {
        if (toAppError(error as Parameters<typeof toAppError>[0]).status === 503) throw error;
        await point.rollBack();
      }
    },
  );
}

/** A dry run's line that wrote its key, kept as it was read (before its collections were joined) for later batches. */
export function rememberApplied(keys: DryRunKeys, line: FileLine, read: { value: unknown; text: string }): void {
  const collections = isCsvLine(line) && line.collections?.length ? { collections: line.collections } : {};
  keys.remember(read.value, { text: read.text, ...collections });
}
