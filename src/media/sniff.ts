import type { MediaType } from '../shared/index.js';

/**
 * The type of a file by its magic bytes, or null. A data URI's declared type is only trusted when
 * its bytes agree, so a stored `.png` is served as `image/png` only if it really starts like one.
 */

const ascii = (bytes: Uint8Array, start: number, end: number) => Buffer.from(bytes.subarray(start, end)).toString('latin1');

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte);
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const AVIF_BRANDS = new Set(['avif', 'avis']);

/** AVIF is an ISO-BMFF file whose leading `ftyp` box names an AVIF brand (major or compatible). */
function isAvif(bytes: Uint8Array): boolean {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return false;
  const boxSize = Buffer.from(bytes.subarray(0, 4)).readUInt32BE(0);
  const end = Math.min(boxSize, bytes.length);
  if (AVIF_BRANDS.has(ascii(bytes, 8, 12))) return true;
  for (let offset = 16; offset + 4 <= end; offset += 4) {
    if (AVIF_BRANDS.has(ascii(bytes, offset, offset + 4))) return true;
  }
  return false;
}

export function sniffMediaType(bytes: Uint8Array): MediaType | null {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  const head = ascii(bytes, 0, 6);
  if (head === 'GIF87a' || head === 'GIF89a') return 'image/gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
  if (ascii(bytes, 0, 5) === '%PDF-') return 'application/pdf';
  if (isAvif(bytes)) return 'image/avif';
  return null;
}
