import { describe, expect, it } from 'vitest';
import { AVIF, AVIF_COMPATIBLE, dataUri, GIF, JPEG, PDF, PNG, WEBP } from '../../test/support/media.fixtures.js';
import { decodeDataUri } from './data-uri.js';
import { contentTypeOfKey, DOCUMENT_OR_IMAGE_TYPES, IMAGE_TYPES, mediaKeyOf } from './media.js';
import { sniffMediaType } from './sniff.js';

describe('sniffMediaType', () => {
  it('recognizes each accepted type by its magic bytes', () => {
    expect(sniffMediaType(PNG)).toBe('image/png');
    expect(sniffMediaType(JPEG)).toBe('image/jpeg');
    expect(sniffMediaType(GIF)).toBe('image/gif');
    expect(sniffMediaType(Buffer.from('GIF87a......'))).toBe('image/gif');
    expect(sniffMediaType(WEBP)).toBe('image/webp');
    expect(sniffMediaType(AVIF)).toBe('image/avif');
    expect(sniffMediaType(AVIF_COMPATIBLE)).toBe('image/avif');
    expect(sniffMediaType(PDF)).toBe('application/pdf');
  });

  it('refuses everything else, truncated headers included', () => {
    for (const bytes of [
      Buffer.alloc(0),
      PNG.subarray(0, 7),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      Buffer.from('RIFF\0\0\0\0WAVEfmt '),
      Buffer.from([0, 0, 0, 0x18, ...Buffer.from('ftypmp42\0\0\0\0isomavc1')]),
      Buffer.from('GIF88a'),
      Buffer.from('%PDF'),
    ]) {
      expect(sniffMediaType(bytes)).toBeNull();
    }
  });
});

describe('decodeDataUri', () => {
  const MAX = 1024;

  it('decodes a data URI whose bytes match its declared type', () => {
    const decoded = decodeDataUri(dataUri('image/png', PNG), IMAGE_TYPES, MAX);
    expect(decoded).toEqual({ ok: true, contentType: 'image/png', bytes: PNG });
    expect(decodeDataUri(dataUri('image/jpg', JPEG), IMAGE_TYPES, MAX)).toMatchObject({ ok: true, contentType: 'image/jpeg' });
    const withParameters = `data:IMAGE/PNG;name=a.png;base64,${PNG.toString('base64').replace(/(.{20})/g, '$1\n')}`;
    expect(decodeDataUri(withParameters, IMAGE_TYPES, MAX)).toMatchObject({ ok: true, contentType: 'image/png' });
    expect(decodeDataUri(dataUri('application/pdf', PDF), DOCUMENT_OR_IMAGE_TYPES, MAX)).toMatchObject({ ok: true });
  });

  it('explains each refusal', () => {
    const cases: [string, RegExp][] = [
      [dataUri('application/pdf', PDF), /type must be one of/],
      [dataUri('image/svg+xml', Buffer.from('<svg/>')), /type must be one of/],
      ['data:image/png,plain', /base64/],
      ['data:image/png;base64,@@@@', /not valid base64/],
      ['data:image/png;base64,A', /not valid base64/],
      ['data:image/png;base64,', /empty/],
      [dataUri('image/png', GIF), /not a valid image\/png/],
      [dataUri('image/png', Buffer.concat([PNG, Buffer.alloc(MAX)])), /larger than 1024 bytes/],
      ['data:image/png', /http\(s\) URL or a base64 data URI/],
    ];
    for (const [value, message] of cases) {
      const decoded = decodeDataUri(value, IMAGE_TYPES, MAX);
      expect(decoded.ok).toBe(false);
      if (!decoded.ok) expect(decoded.message).toMatch(message);
    }
  });
});

describe('media keys', () => {
  it('are the SHA-256 of the bytes with the extension of the type', () => {
    const key = mediaKeyOf(PNG, 'image/png');
    expect(key).toMatch(/^[0-9a-f]{64}\.png$/);
    expect(mediaKeyOf(Buffer.from(PNG), 'image/png')).toBe(key);
    expect(mediaKeyOf(JPEG, 'image/jpeg')).toMatch(/\.jpg$/);
    expect(contentTypeOfKey(key)).toBe('image/png');
    expect(contentTypeOfKey(`${'a'.repeat(64)}.pdf`)).toBe('application/pdf');
    for (const bad of ['../x.png', `${'a'.repeat(64)}.PNG`, `${'a'.repeat(64)}.svg`, `x/${'a'.repeat(64)}.png`]) {
      expect(contentTypeOfKey(bad)).toBeNull();
    }
  });
});
