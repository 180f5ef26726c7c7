import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext } from '../../test/helpers.js';
import { dataUri, PDF, PNG } from '../../test/support/media.fixtures.js';

/**
 * GET /media/… answers byte ranges (Accept-Ranges, 206, 416) and carries headers that keep a file from
 * running on our origin (CSP sandbox, nosniff, a PDF as an attachment). Both engines: on PostgreSQL the
 * bytes come from the database in 256 KiB chunks, so a range across a chunk boundary is checked too.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const CHUNK = 256 * 1024;
// a size chart of 600 KB: three database chunks
const BIG_PDF = Buffer.concat([PDF, Buffer.from(Array.from({ length: 600_000 }, (_, i) => i % 251))]);

async function stored(): Promise<{ pdf: string; png: string }> {
  const store = await t.newStore();
  const res = await t.call(store, 'POST', '/products', {
    title: 'Media',
    images: [dataUri('image/png', PNG)],
    sizeChart: dataUri('application/pdf', BIG_PDF),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { pdf: new URL(res.body.data.sizeChart).pathname, png: new URL(res.body.data.image[0]).pathname };
}

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('GET /media/… with Range', () => {
  it('answers one range with 206, Content-Range and exactly those bytes (across chunk boundaries too)', async () => {
    const { pdf } = await stored();
    const size = BIG_PDF.length;
    const cases: [string, number, number][] = [
      ['bytes=0-9', 0, 9],
      [`bytes=${CHUNK - 5}-${CHUNK + 4}`, CHUNK - 5, CHUNK + 4],
      [`bytes=${CHUNK}-${2 * CHUNK + 10}`, CHUNK, 2 * CHUNK + 10],
      ['bytes=-7', size - 7, size - 1],
      [`bytes=${size - 3}-`, size - 3, size - 1],
      // an end past the file is cut at its last byte
      [`bytes=10-${size + 1000}`, 10, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await get(pdf, { range });
      expect(res.statusCode, range).toBe(206);
      expect(res.headers['content-range'], range).toBe(`bytes ${start}-${end}/${size}`);
      expect(res.headers['content-length'], range).toBe(String(end - start + 1));
      expect(res.rawPayload.equals(BIG_PDF.subarray(start, end + 1)), range).toBe(true);
      expect(res.headers['accept-ranges']).toBe('bytes');
    }
  });

  it('416 with Content-Range bytes */size for a range past the end; the whole file for what it does not serve', async () => {
    const { pdf } = await stored();
    const size = BIG_PDF.length;
    const past = await get(pdf, { range: `bytes=${size}-` });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${size}`);
    expect(past.rawPayload.length).toBe(0);
    const whole: Record<string, string>[] = [
      { range: 'bytes=0-1,100-200' },
      { range: 'items=0-1' },
      { range: 'bytes=x-y' },
      { range: 'bytes=0-9', 'if-range': '"not-this-version"' },
      {},
    ];
    for (const headers of whole) {
      const res = await get(pdf, headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
      expect(res.headers['content-length']).toBe(String(size));
      expect(res.rawPayload.equals(BIG_PDF)).toBe(true);
      expect(res.headers['accept-ranges']).toBe('bytes');
    }
    const etag = (await get(pdf)).headers.etag as string;
    const matching = await get(pdf, { range: 'bytes=0-9', 'if-range': etag });
    expect(matching.statusCode).toBe(206);
    expect(matching.rawPayload.equals(BIG_PDF.subarray(0, 10))).toBe(true);
  });
});

describe('GET /media/… safety headers', () => {
  it('a PDF is an attachment under its name; an image is inline; both sandboxed by CSP and nosniff', async () => {
    const { pdf, png } = await stored();
    const pdfRes = await get(pdf);
    const pngRes = await get(png);
    const pdfName = pdf.split('/').pop();
    const pngName = png.split('/').pop();
    expect(pdfRes.headers['content-disposition']).toBe(`attachment; filename="${pdfName}"`);
    expect(pngRes.headers['content-disposition']).toBe(`inline; filename="${pngName}"`);
    for (const res of [pdfRes, pngRes, await get(pdf, { range: 'bytes=0-3' })]) {
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});
