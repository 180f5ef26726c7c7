import type { Pagination } from './common.schema.js';
import { formatIso } from './iso.js';

export const ok = <T>(data: T) => ({ success: true as const, data });
export const okList = <T>(data: T[], pagination: Pagination) => ({ success: true as const, data, pagination });

/**
 * A list of stored JSON texts (GET's records as stored) as the bytes of its answer, the envelope `okList` would
 * build. Made once per read: identical list reads share one (src/reads/shared-reads.ts), and each of their
 * requests then writes the same bytes instead of joining a ~105 KB string of its own (a page of 25 products),
 * which was most of what a shared page allocated per request, and the young garbage that raised the peak RSS.
 */
export const storedListBytes = (texts: string[], pagination: Pagination): Buffer =>
  Buffer.from(`{"success":true,"data":[${texts.join(',')}],"pagination":${JSON.stringify(pagination)}}`);
export const iso = (value: Date | string) => formatIso(value instanceof Date ? value : new Date(value));
export const isoOrNull = (value: Date | string | null | undefined) => (value == null ? null : iso(value));
export const numberOrNull = (value: string | number | null | undefined) => (value == null ? null : Number(value));
