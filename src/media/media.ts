import { createHash } from 'node:crypto';
import { MEDIA_EXTENSIONS, type MediaType } from '../shared/index.js';

// Media keys and the types an upload may have; the port the stores implement is src/shared/media-store.ts.

export const IMAGE_TYPES: readonly MediaType[] = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif'];
export const DOCUMENT_OR_IMAGE_TYPES: readonly MediaType[] = [...IMAGE_TYPES, 'application/pdf'];

/** The only names a media key can have: anything else (`..`, `/`, other extensions) is never looked up. */
export const MEDIA_KEY = /^[0-9a-f]{64}\.(png|jpg|webp|gif|avif|pdf)$/;

const TYPE_BY_EXTENSION = new Map<string, MediaType>(
  Object.entries(MEDIA_EXTENSIONS).map(([type, extension]) => [extension, type as MediaType]),
);

export function contentTypeOfKey(key: string): MediaType | null {
  const match = MEDIA_KEY.exec(key);
  return match ? (TYPE_BY_EXTENSION.get(match[1]) ?? null) : null;
}

export function mediaKeyOf(bytes: Buffer, contentType: MediaType): string {
  return `${createHash('sha256').update(bytes).digest('hex')}.${MEDIA_EXTENSIONS[contentType]}`;
}
