import type { Tx } from '../db/index.js';
import { invalidField } from '../errors.js';
import type { ImportLineOptions, MediaStore } from '../shared/index.js';
import { changesNothing, compileBodyCheck, withoutIgnored } from '../shared/index.js';
import { Collection, CreateCollectionBody } from './collections.schema.js';
import { createCollection, currentCollection, updateCollection } from './collections.service.js';
import { collectionIdByHandle } from './collections.sql.js';
import { suppliedHandle } from './handles.js';

/** Where a data-URI image of a line goes: the app's media store and its size limit (the import's context fits). */
export interface CollectionImportContext {
  media: MediaStore;
  config: { mediaMaxBytes: number };
}

// A collection as GET returns it is a valid line: its read-only names are ignored.
const checkLine = compileBodyCheck(CreateCollectionBody, Collection);

/**
 * The line handler of collections (the body POST /collections takes), upserted by `handle`: the store's
 * collection with that handle (slugified as the API does) is updated as PATCH would update it, else one
 * is created as POST would create it; the same checks, errors and events as those writes. A line must
 * carry its handle: without one it could never be matched again, and a second import would duplicate
 * it. A matched line that would change nothing writes nothing (no updatedAt move, no event).
 */
export function importCollectionLine(context: CollectionImportContext) {
  const uploads = { store: context.media, maxBytes: context.config.mediaMaxBytes };
  return async (
    trx: Tx,
    storeId: string,
    line: unknown,
    _text: string,
    { handling, afterWork }: ImportLineOptions,
  ): Promise<'created' | 'updated'> => {
    const input = checkLine(withoutIgnored(line), handling);
    if (input.handle === undefined) throw invalidField('handle', 'is required in an import line: it is the key the line is matched by');
    const handle = suppliedHandle(input.handle);
    const id = handle ? await collectionIdByHandle(trx, storeId, handle) : undefined;
    if (!id) {
      await afterWork.append(trx, storeId, { type: 'collection.created', data: await createCollection(trx, storeId, input, uploads) });
      return 'created';
    }
    const current = await currentCollection(id)(trx, storeId);
    // As the service stores them: the title trimmed, the handle slugified (the rest as given).
    if (!changesNothing({ ...input, title: input.title.trim(), handle }, current)) {
      await afterWork.append(trx, storeId, { type: 'collection.updated', data: await updateCollection(trx, storeId, id, input, uploads) });
    }
    return 'updated';
  };
}
