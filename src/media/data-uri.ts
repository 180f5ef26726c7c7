import type { MediaType } from '../shared/index.js';
import { sniffMediaType } from './sniff.js';

export type DecodedMedia = { ok: true; contentType: MediaType; bytes: Buffer } | { ok: false; message: string };

/** Common spellings that mean a supported type. */
const ALIASES: Record<string, MediaType> = { 'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg' };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function isDataUri(value: string): boolean {
  return value.slice(0, 5).toLowerCase() === 'data:';
}

function parseHeader(header: string): { type: string; base64: boolean } {
  const [type, ...parameters] = header.split(';');
  const normalized = type.trim().toLowerCase();
  return { type: ALIASES[normalized] ?? normalized, base64: parameters.some((p) => p.trim().toLowerCase() === 'base64') };
}

/**
 * Decodes a `data:<type>[;…];base64,<payload>` URI into bytes of one of the `allowed` types.
 * The size is checked on the encoded length first, so an oversized payload is never decoded.
 */
export function decodeDataUri(value: string, allowed: readonly MediaType[], maxBytes: number): DecodedMedia {
  const comma = value.indexOf(',');
  if (!isDataUri(value) || comma < 0) return { ok: false, message: 'must be an http(s) URL or a base64 data URI' };
  const { type, base64 } = parseHeader(value.slice(5, comma));
  if (!allowed.includes(type as MediaType)) return { ok: false, message: `data URI type must be one of: ${allowed.join(', ')}` };
  if (!base64) return { ok: false, message: 'data URI must be base64-encoded (";base64,")' };
  const payload = value.slice(comma + 1).replace(/\s+/g, '');
  if (!BASE64.test(payload) || payload.length % 4 === 1) return { ok: false, message: 'data URI payload is not valid base64' };
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  const size = Math.floor((payload.length * 3) / 4) - padding;
  if (size === 0) return { ok: false, message: 'data URI is empty' };
  if (size > maxBytes) return { ok: false, message: `file is larger than ${maxBytes} bytes` };
  const bytes = Buffer.from(payload, 'base64');
  if (sniffMediaType(bytes) !== type) return { ok: false, message: `content is not a valid ${type} file` };
  return { ok: true, contentType: type as MediaType, bytes };
}
