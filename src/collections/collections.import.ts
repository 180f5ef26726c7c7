import type { Tx } from '../db/index.js';
import { invalidField } from '../errors.js';
import { writeWithEvent } from '../events/index.js';
import { bodyValidator } from '../http/index.js';
import type { MediaStore } from '../media/index.js';
import { changesNothing, withoutIgnored } from '../shared/index.js';
import { CreateCollectionBody } from './collections.schema.js';
import { createCollection, currentCollection, updateCollection } from './collections.service.js';
import { collectionIdByHandle } from './collections.sql.js';
import { suppliedHandle } from './handles.js';

/** Where a data-URI image of a line goes: the app's media store and its size limit (an AppContext fits). */
export interface CollectionImportContext {
  media: MediaStore;
  config: { mediaMaxBytes: number };
}

const validateLine = bodyValidator(CreateCollectionBody);
const DATA_URI = /^\s*data:/i;

/**
 * One import line of collections (the body POST /collections takes), upserted by `handle`: a collection
 * of the store with that handle (slugified as the API does) is updated as PATCH would update it, else
 * one is created as POST would create it; the same checks, errors and events as those writes. A line
 * must carry its handle (without one it could never be matched again, so a second import would
 * duplicate it). A matched line that would change nothing writes nothing (no updatedAt move, no event).
 */
export async function importCollectionLine(
  trx: Tx,
  storeId: string,
  line: unknown,
  context?: CollectionImportContext,
): Promise<'created' | 'updated'> {
  const input = validateLine(withoutIgnored(line));
  if (input.handle === undefined) throw invalidField('handle', 'is required in an import line: it is the key the line is matched by');
  if (!context && input.image != null && DATA_URI.test(input.image)) {
    throw invalidField('image', 'must be an http(s) URL: this import runs without the media store a data URI needs');
  }
  const uploads = context ? { store: context.media, maxBytes: context.config.mediaMaxBytes } : NO_UPLOADS;
  const handle = suppliedHandle(input.handle);
  const id = handle ? await collectionIdByHandle(trx, storeId, handle) : undefined;
  if (!id) {
    await writeWithEvent(trx, storeId, 'collection.created', () => createCollection(trx, storeId, input, uploads));
    return 'created';
  }
  const current = await currentCollection(id)(trx, storeId);
  // As the service stores them: the title trimmed, the handle slugified (the rest as given).
  if (!changesNothing({ ...input, title: input.title.trim(), handle }, current)) {
    await writeWithEvent(trx, storeId, 'collection.updated', () => updateCollection(trx, storeId, id, input, uploads));
  }
  return 'updated';
}

// Never written to: without a context a data URI is refused above, and the rest needs no store.
const NO_UPLOADS = {
  store: {
    urlOf: () => {
      throw new Error('no media store for this import');
    },
    put: async () => {
      throw new Error('no media store for this import');
    },
    open: async () => null,
  },
  maxBytes: 0,
};
