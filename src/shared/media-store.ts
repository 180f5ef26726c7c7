import type { Readable } from 'node:stream';

/**
 * The media port: products hand over validated bytes and get back a public URL; the media route
 * opens a file by its key. Keys are content addresses (`<sha256>.<ext>`), so an object is
 * immutable, identical bytes are stored once, and a URL can be computed before the bytes are written.
 * A filesystem store implements it today; an S3-compatible store would implement the same three
 * methods and nothing in products would change. The port is declared here, its stores are src/media:
 * the app context (src/http/context.ts) names it without importing src/media, whose routes import src/http.
 */

/** Accepted MIME types and the extension their files get. */
export const MEDIA_EXTENSIONS = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'application/pdf': 'pdf',
} as const;
export type MediaType = keyof typeof MEDIA_EXTENSIONS;

export interface MediaObject {
  key: string;
  contentType: MediaType;
  bytes: Buffer;
}

/** Bytes `start` to `end` of a file, both included (as in a `Range` header). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface MediaFile {
  size: number;
  /** the file's bytes, or those of one range; nothing is read until this is called */
  read(range?: ByteRange): Readable;
}

export interface MediaStore {
  /** the public URL of a key, whether or not it is stored yet */
  urlOf(key: string): string;
  /** stores the object; idempotent (same key, same bytes) */
  put(object: MediaObject): Promise<void>;
  /** the stored object, or null when the key is unknown */
  open(key: string): Promise<MediaFile | null>;
}
