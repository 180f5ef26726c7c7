import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GIF, PNG } from '../../test/support/media.fixtures.js';
import { createFsMediaStore } from './fs-store.js';
import { mediaKeyOf } from './media.js';

const root = mkdtempSync(join(tmpdir(), 'storefront-media-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const allFiles = () => readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('filesystem media store', () => {
  const store = createFsMediaStore(root, 'https://shop.example');

  it('stores content-addressed files under a two-digit shard and serves them back', async () => {
    const key = mediaKeyOf(PNG, 'image/png');
    expect(store.urlOf(key)).toBe(`https://shop.example/media/${key}`);
    await store.put({ key, contentType: 'image/png', bytes: PNG });
    expect(readFileSync(join(root, key.slice(0, 2), key)).equals(PNG)).toBe(true);
    const file = await store.open(key);
    expect(file?.size).toBe(PNG.length);
    expect((await readAll(file?.read() as NodeJS.ReadableStream)).equals(PNG)).toBe(true);
  });

  it('writes the same bytes once, concurrently too, and leaves no temp file', async () => {
    const key = mediaKeyOf(GIF, 'image/gif');
    await Promise.all([1, 2, 3].map(() => store.put({ key, contentType: 'image/gif', bytes: GIF })));
    await store.put({ key, contentType: 'image/gif', bytes: GIF });
    const names = allFiles().map((entry) => entry.name);
    expect(names.filter((name) => name === key)).toHaveLength(1);
    expect(names.some((name) => name.endsWith('.tmp'))).toBe(false);
  });

  it('knows nothing of unknown or malformed keys', async () => {
    expect(await store.open(`${'b'.repeat(64)}.png`)).toBeNull();
    expect(await store.open('../../etc/passwd')).toBeNull();
    await expect(store.put({ key: '../evil.png', contentType: 'image/png', bytes: PNG })).rejects.toThrow(/invalid media key/);
  });
});
