/** Tiny files that pass the magic-byte checks, for tests (not shipped behaviour). */

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
export const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
export const JPEG = bytes(
  [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10],
  'JFIF',
  [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9],
);
export const WEBP = bytes(
  'RIFF',
  [0x1a, 0, 0, 0],
  'WEBPVP8L',
  [0x0d, 0, 0, 0, 0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0],
);
export const AVIF = bytes([0, 0, 0, 0x1c], 'ftypavif', [0, 0, 0, 0], 'avifmif1miaf');
/** AVIF whose major brand is generic: the AVIF brand is only among the compatible ones. */
export const AVIF_COMPATIBLE = bytes([0, 0, 0, 0x18], 'ftypmif1', [0, 0, 0, 0], 'miafavis');
export const PDF = bytes('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

export function dataUri(type: string, content: Buffer): string {
  return `data:${type};base64,${content.toString('base64')}`;
}

export const PNG_URI = dataUri('image/png', PNG);
