import type { ErrorDetail } from '../errors.js';
import type { MediaObject, MediaStore, MediaType } from '../shared/index.js';
import { looksLikeWebUrl, webUrlProblem } from '../shared/index.js';
import { decodeDataUri, isDataUri } from './data-uri.js';
import { mediaKeyOf } from './media.js';

/** One media-bearing field value of a request, e.g. `images[2]` or `sizeChart`. */
export interface MediaInput {
  field: string;
  value: string;
}

export interface ResolvedMedia {
  /** the value to store for each input, in order: URLs as given, data URIs as their future media URL */
  urls: string[];
  /** bytes still to write, deduplicated by key; written by `storeMedia` once the request is known to be valid */
  pending: MediaObject[];
  details: ErrorDetail[];
}

/**
 * Validates every input before anything is written: http(s) URLs are kept as they are when
 * `webUrlProblem` finds nothing wrong with them, data URIs are decoded and checked, anything else is a
 * detail naming its field. Nothing touches storage.
 */
export function resolveMedia(store: MediaStore, inputs: MediaInput[], allowed: readonly MediaType[], maxBytes: number): ResolvedMedia {
  const result: ResolvedMedia = { urls: [], pending: [], details: [] };
  const keys = new Set<string>();
  for (const { field, value } of inputs) {
    if (looksLikeWebUrl(value)) {
      const problem = webUrlProblem(value);
      if (problem) result.details.push({ field, in: 'body', message: problem });
      result.urls.push(problem ? '' : value);
      continue;
    }
    const decoded = isDataUri(value) ? decodeDataUri(value, allowed, maxBytes) : null;
    if (!decoded?.ok) {
      result.details.push({ field, in: 'body', message: decoded?.message ?? 'must be an http(s) URL or a base64 data URI' });
      result.urls.push('');
      continue;
    }
    const key = mediaKeyOf(decoded.bytes, decoded.contentType);
    result.urls.push(store.urlOf(key));
    if (!keys.has(key)) result.pending.push({ key, contentType: decoded.contentType, bytes: decoded.bytes });
    keys.add(key);
  }
  return result;
}

export async function storeMedia(store: MediaStore, pending: MediaObject[]): Promise<void> {
  for (const object of pending) await store.put(object);
}
