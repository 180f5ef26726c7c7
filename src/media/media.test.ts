import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext } from '../../test/helpers.js';
import { AVIF, dataUri, GIF, JPEG, PDF, PNG, WEBP } from '../../test/support/media.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

/** The path of a media URL returned by the API. */
const pathOf = (url: string) => new URL(url).pathname;

async function upload(images: string[], sizeChart?: string) {
  const store = await t.newStore();
  const res = await t.call(store, 'POST', '/products', { title: 'Media', images, ...(sizeChart ? { sizeChart } : {}) });
  expect(res.status).toBe(201);
  return res.body.data as { image: string[]; sizeChart: string | null };
}

describe('GET /media/…', () => {
  it('serves the stored bytes without auth, with type and immutable cache headers', async () => {
    const files: [string, Buffer][] = [
      ['image/png', PNG],
      ['image/jpeg', JPEG],
      ['image/gif', GIF],
      ['image/webp', WEBP],
      ['image/avif', AVIF],
    ];
    const product = await upload(
      files.map(([type, bytes]) => dataUri(type, bytes)),
      dataUri('application/pdf', PDF),
    );
    for (const [index, [type, bytes]] of [...files, ['application/pdf', PDF] as [string, Buffer]].entries()) {
      const url = index < files.length ? product.image[index] : (product.sizeChart as string);
      const res = await t.app.inject({ method: 'GET', url: pathOf(url) });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(bytes)).toBe(true);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['content-length']).toBe(String(bytes.length));
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-request-id']).toBeTruthy();
    }
  });

  it('answers 304 to a matching If-None-Match and HEAD without a body', async () => {
    const product = await upload([dataUri('image/png', PNG)]);
    const path = pathOf(product.image[0]);
    const first = await t.app.inject({ method: 'GET', url: path });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const cached = await t.app.inject({ method: 'GET', url: path, headers: { 'if-none-match': etag } });
    expect(cached.statusCode).toBe(304);
    expect(cached.rawPayload.length).toBe(0);
    const head = await t.app.inject({ method: 'HEAD', url: path });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('image/png');
  });

  it('is public even with a bad credential, and never rate limited by one', async () => {
    const product = await upload([dataUri('image/png', PNG)]);
    const res = await t.app.inject({ method: 'GET', url: pathOf(product.image[0]), headers: { authorization: 'Bearer nonsense' } });
    expect(res.statusCode).toBe(200);
  });

  it('answers the 404 envelope for unknown or malformed names, never leaving the media dir', async () => {
    const unknown = `${'a'.repeat(64)}.png`;
    const names = [
      unknown,
      `${'A'.repeat(64)}.png`,
      `${'a'.repeat(64)}.exe`,
      `${'a'.repeat(63)}.png`,
      'abc.png',
      '..%2F..%2Fpackage.json',
      '..%2Fjwt-secret',
      '%2e%2e%2fjwt-secret',
    ];
    for (const name of names) {
      const res = await t.call(null, 'GET', `/media/${name}`);
      expectError(res, 404, 'NOT_FOUND');
    }
    expectError(await t.call(null, 'GET', '/media/../jwt-secret'), 404, 'NOT_FOUND');
    expectError(await t.call(null, 'GET', '/media/a/b.png'), 404, 'NOT_FOUND');
    const wrongMethod = await t.call(null, 'POST', `/media/${unknown}`, {});
    expect(wrongMethod.status).toBe(405);
  });
});
