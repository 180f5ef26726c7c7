import type { Pagination } from './common.schema.js';
import { formatIso } from './iso.js';

export const ok = <T>(data: T) => ({ success: true as const, data });
export const okList = <T>(data: T[], pagination: Pagination) => ({ success: true as const, data, pagination });
export const iso = (value: Date | string) => formatIso(value instanceof Date ? value : new Date(value));
export const isoOrNull = (value: Date | string | null | undefined) => (value == null ? null : iso(value));
export const numberOrNull = (value: string | number | null | undefined) => (value == null ? null : Number(value));
