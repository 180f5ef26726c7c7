import type { Db } from '../db/index.js';
import type { ErrorDetail } from '../errors.js';
import { IMAGE_TYPES, resolveMedia } from '../media/index.js';
import { type MediaObject, type MediaStore, missingReferences } from '../shared/index.js';
import type { CollectionType, MatchType, UpdateCollectionInput } from './collections.schema.js';
import type { CollectionRow } from './collections.sql.js';
import { suppliedHandle } from './handles.js';
import { parentErrors } from './hierarchy.js';
import { duplicateIds } from './membership.js';
import { conditionErrors, type Rule } from './rules.js';

/**
 * The checks of a collection write, each returning every detail it finds, so one 400 names
 * all the wrong fields at once. `current` is the stored row on update, null on create.
 */

/** What a collection's type makes of matchType and conditions: rules belong to smart collections only. */
export interface ResolvedRules {
  type: CollectionType;
  matchType: MatchType | null;
  conditions: Rule[];
}

const detail = (field: string, message: string): ErrorDetail => ({ field, in: 'body', message });

function smartRules(input: UpdateCollectionInput, current: CollectionRow | null): ResolvedRules & { details: ErrorDetail[] } {
  // Rules are kept only while the collection stays smart; a manual one switching over needs new ones.
  const wasSmart = current?.collection_type === 'smart';
  const conditions = input.conditions ?? (wasSmart ? current.conditions : []);
  const storedMatch = wasSmart ? (current.match_type as MatchType | null) : null;
  const matchType = (input.matchType !== undefined ? input.matchType : storedMatch) ?? 'all condition';
  const details = conditionErrors(conditions);
  if (conditions.length === 0) details.push(detail('conditions', 'a smart collection needs at least one condition'));
  if (input.selectedProducts?.length) {
    details.push(detail('selectedProducts', 'only manual collections have selected products; smart ones follow their conditions'));
  }
  return { type: 'smart', matchType, conditions, details };
}

export function resolveRules(input: UpdateCollectionInput, current: CollectionRow | null): ResolvedRules & { details: ErrorDetail[] } {
  const type = (input.collectionType ?? current?.collection_type ?? 'manual') as CollectionType;
  if (type === 'smart') return smartRules(input, current);
  const details: ErrorDetail[] = [];
  if (input.conditions?.length) details.push(detail('conditions', "only smart collections have conditions; set collectionType to 'smart'"));
  if (input.matchType != null) details.push(detail('matchType', "only smart collections have a match type; set collectionType to 'smart'"));
  return { type, matchType: null, conditions: [], details };
}

/** Where a data-URI image goes: the deployment's media store, within its size limit. */
export interface ImageUploads {
  store: MediaStore;
  maxBytes: number;
}

export interface CheckedFields {
  /** the slugified handle when one is supplied */
  handle: string | undefined;
  /** the image to store when one is supplied: an http(s) URL as given, a data URI as its media URL */
  image: string | null | undefined;
  /** image bytes to write after all the database work of the request has succeeded */
  pending: MediaObject[];
  details: ErrorDetail[];
}

/** The fields checked without the database: handle and image (the same rule as product images). */
export function fieldDetails(input: UpdateCollectionInput, uploads: ImageUploads): CheckedFields {
  const details: ErrorDetail[] = [];
  const handle = input.handle === undefined ? undefined : suppliedHandle(input.handle);
  if (handle === '') details.push(detail('handle', 'must contain at least one letter or digit'));
  if (input.image == null) return { handle, image: input.image, pending: [], details };
  const media = resolveMedia(uploads.store, [{ field: 'image', value: input.image }], IMAGE_TYPES, uploads.maxBytes);
  return { handle, image: media.urls[0], pending: media.pending, details: [...details, ...media.details] };
}

/** selectedProducts (of a manual collection) and parentCollection must name records of this store. */
export async function referenceDetails(
  db: Db,
  storeId: string,
  input: UpdateCollectionInput,
  type: CollectionType,
  collectionId: string | null,
): Promise<ErrorDetail[]> {
  const products = type === 'manual' && input.selectedProducts ? input.selectedProducts : [];
  return [
    ...duplicateIds(products, 'selectedProducts'),
    ...(await missingReferences(db, 'products', storeId, products, 'selectedProducts')),
    ...(input.parentCollection ? await parentErrors(db, storeId, collectionId, input.parentCollection) : []),
  ];
}
