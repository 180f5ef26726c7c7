import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { dataUri, GIF, JPEG, PDF, PNG, PNG_URI, WEBP } from '../../test/support/media.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const MEDIA_URL = /^http:\/\/storefront\.test\/media\/[0-9a-f]{64}\.(png|jpg|gif|webp|avif|pdf)$/;

function mediaFiles(context: TestContext): string[] {
  const root = join(context.config.dataDir, 'media');
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

async function rows(store: TestStore, table: 'products' | 'variants' | 'attributes'): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where store_id = ${store.id}`.execute(
    t.database.db,
  );
  return rows[0].n;
}

describe('products: images and size chart', () => {
  it('stores data URIs content-addressed and keeps http(s) URLs as they are', async () => {
    const store = await t.newStore();
    const images = [PNG_URI, 'https://cdn.example.com/x.jpg', dataUri('image/jpg', JPEG), dataUri('image/webp', WEBP), PNG_URI];
    const res = await t.call(store, 'POST', '/products', { title: 'Pics', images, sizeChart: dataUri('application/pdf', PDF) });
    expect(res.status).toBe(201);
    const { image, sizeChart } = res.body.data;
    expect(image).toHaveLength(5);
    expect(image[1]).toBe('https://cdn.example.com/x.jpg');
    for (const url of [image[0], image[2], image[3], sizeChart]) expect(url).toMatch(MEDIA_URL);
    expect(image[0]).toBe(image[4]);
    expect(image[2]).toMatch(/\.jpg$/);
    expect(sizeChart).toMatch(/\.pdf$/);
    const before = mediaFiles(t).length;
    const again = await t.call(store, 'POST', '/products', { title: 'Pics again', images: [PNG_URI] });
    expect(again.body.data.image).toEqual([image[0]]);
    expect(mediaFiles(t).length).toBe(before);
    expect(mediaFiles(t).some((name) => name.endsWith('.tmp'))).toBe(false);
  });

  it('names every bad image or size chart in one 400', async () => {
    const store = await t.newStore();
    const images = [
      'ftp://example.com/a.png',
      'just text',
      dataUri('image/svg+xml', Buffer.from('<svg/>')),
      dataUri('image/png', GIF),
      'data:image/png;base64,@@@@',
      'data:image/png,rawbytes',
      dataUri('application/pdf', PDF),
      'https://fine.example.com/ok.png',
    ];
    const error = expectError(
      await t.call(store, 'POST', '/products', { title: 'Bad', images, sizeChart: '/relative/chart.png' }),
      400,
      'VALIDATION_ERROR',
    );
    expect(error.details.map((d) => d.field)).toEqual([...images.slice(0, 7).map((_, i) => `images[${i}]`), 'sizeChart']);
    expect(error.details[3].message).toMatch(/not a valid image\/png/);
    expect(JSON.stringify(error)).not.toContain('rawbytes');
  });

  it('leaves nothing behind when the third image is invalid: no product, variant, attribute or file', async () => {
    const store = await t.newStore();
    const filesBefore = mediaFiles(t);
    const fresh = dataUri('image/gif', Buffer.concat([GIF, Buffer.from('unique-1')]));
    const body = {
      title: 'Atomic',
      options: [{ name: 'Size', values: ['S', 'M'] }],
      images: [fresh, PNG_URI, 'data:image/png;base64,AAAA'],
    };
    const error = expectError(await t.call(store, 'POST', '/products', body), 400, 'VALIDATION_ERROR');
    expect(error.details.map((d) => d.field)).toEqual(['images[2]']);
    expect(await rows(store, 'products')).toBe(0);
    expect(await rows(store, 'variants')).toBe(0);
    expect(await rows(store, 'attributes')).toBe(0);
    expect(mediaFiles(t)).toEqual(filesBefore);
  });

  it('writes no file when the request fails after its images were accepted', async () => {
    const store = await t.newStore();
    await t.call(store, 'POST', '/products', { title: 'First', handle: 'taken' });
    const filesBefore = mediaFiles(t);
    const fresh = dataUri('image/gif', Buffer.concat([GIF, Buffer.from('unique-2')]));
    expectError(await t.call(store, 'POST', '/products', { title: 'Second', handle: 'taken', images: [fresh] }), 400, 'DUPLICATE_VALUE');
    expect(mediaFiles(t)).toEqual(filesBefore);
  });

  it('on PATCH keeps existing URLs, stores new data URIs and replaces the list', async () => {
    const store = await t.newStore();
    const created = (await t.call(store, 'POST', '/products', { title: 'Gallery', images: [PNG_URI] })).body.data;
    const stored = created.image[0];
    const patched = await t.call(store, 'PATCH', `/products/${created.id}`, {
      images: [dataUri('image/gif', GIF), stored],
      sizeChart: stored,
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.image[1]).toBe(stored);
    expect(patched.body.data.image[0]).toMatch(/\.gif$/);
    expect(patched.body.data.sizeChart).toBe(stored);
    const cleared = await t.call(store, 'PATCH', `/products/${created.id}`, { images: [], sizeChart: null });
    expect(cleared.body.data).toMatchObject({ image: [], sizeChart: null });
    const bad = expectError(await t.call(store, 'PATCH', `/products/${created.id}`, { images: [stored, 'nope'] }), 400, 'VALIDATION_ERROR');
    expect(bad.details[0].field).toBe('images[1]');
    expect((await t.call(store, 'GET', `/products/${created.id}`)).body.data.image).toEqual([]);
  });
});

describe('products: media limits from config', () => {
  let small: TestContext;
  beforeAll(async () => {
    small = await setupTestApp({ mediaMaxBytes: 100, mediaMaxImages: 2 });
  });
  afterAll(() => small.close());

  it('refuses a file over mediaMaxBytes and more than mediaMaxImages images', async () => {
    const store = await small.newStore();
    const big = dataUri('image/png', Buffer.concat([PNG, Buffer.alloc(200)]));
    const size = expectError(
      await small.call(store, 'POST', '/products', { title: 'Big', images: [PNG_URI, big] }),
      400,
      'VALIDATION_ERROR',
    );
    expect(size.details).toEqual([expect.objectContaining({ field: 'images[1]', message: expect.stringContaining('100 bytes') })]);
    const urls = ['https://a.example/1.png', 'https://a.example/2.png', 'https://a.example/3.png'];
    const count = expectError(await small.call(store, 'POST', '/products', { title: 'Many', images: urls }), 400, 'VALIDATION_ERROR');
    expect(count.details.map((d) => d.field)).toEqual(['images']);
    expect((await small.call(store, 'POST', '/products', { title: 'Ok', images: urls.slice(0, 2) })).status).toBe(201);
    expect(mediaFiles(small)).toEqual([]);
  });
});
