import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { testConfig, useTestDatabase } from '../../test/helpers.js';
import { createMediaStore, migrateMediaDir } from '../media/index.js';
import { blobSize, CHUNK_BYTES, deleteBlob, putBlob, readBlob, writeBlobStream } from './index.js';

const t = useTestDatabase();
const key = (what: string) => `test/${what}-${randomBytes(6).toString('hex')}`;

async function readAll(source: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of source) parts.push(part);
  return Buffer.concat(parts);
}

describe('blobs', () => {
  it('stores bytes in chunks and reads them back whole or from any byte, one chunk at a time', async () => {
    const bytes = randomBytes(2 * CHUNK_BYTES + 1234);
    const name = key('put');
    await putBlob(t.database.db, name, bytes);
    await putBlob(t.database.db, name, bytes); // idempotent: same key, same bytes
    expect(await blobSize(t.database.db, name)).toBe(bytes.length);
    const chunks = await t.database.db.selectFrom('blob_chunks').select('seq').where('key', '=', name).execute();
    expect(chunks).toHaveLength(3);
    expect((await readAll(readBlob(t.database.db, name))).equals(bytes)).toBe(true);
    for (const start of [1, CHUNK_BYTES - 1, CHUNK_BYTES, CHUNK_BYTES + 7, bytes.length - 1, bytes.length]) {
      expect((await readAll(readBlob(t.database.db, name, start))).equals(bytes.subarray(start))).toBe(true);
    }
    await deleteBlob(t.database.db, name);
    expect(await blobSize(t.database.db, name)).toBeNull();
    expect(await t.database.db.selectFrom('blob_chunks').select('seq').where('key', '=', name).execute()).toEqual([]);
  });

  it('writes a stream of odd-sized pieces; a stream that fails leaves nothing behind', async () => {
    const pieces = Array.from({ length: 40 }, (_, i) => randomBytes(17_000 + i));
    const name = key('stream');
    expect(await writeBlobStream(t.database.db, name, Readable.from(pieces))).toBe(Buffer.concat(pieces).length);
    expect((await readAll(readBlob(t.database.db, name, 5))).equals(Buffer.concat(pieces).subarray(5))).toBe(true);

    const broken = key('broken');
    async function* failing() {
      yield randomBytes(CHUNK_BYTES + 10);
      throw new Error('client went away');
    }
    await expect(writeBlobStream(t.database.db, broken, failing())).rejects.toThrow('client went away');
    expect(await t.database.db.selectFrom('blobs').select('key').where('key', '=', broken).execute()).toEqual([]);
    expect(await t.database.db.selectFrom('blob_chunks').select('seq').where('key', '=', broken).execute()).toEqual([]);
  });
});

describe('storefront media migrate', () => {
  it("moves a directory's media into the configured store, checking each file against its name", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'storefront-media-migrate-'));
    const target = mkdtempSync(join(tmpdir(), 'storefront-media-target-'));
    try {
      const good = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(CHUNK_BYTES)]);
      const goodKey = `${createHash('sha256').update(good).digest('hex')}.pdf`;
      mkdirSync(join(dir, goodKey.slice(0, 2)));
      writeFileSync(join(dir, goodKey.slice(0, 2), goodKey), good);
      // in a directory of its own: the good file's random name starts with "ab" one time in 256
      const badPrefix = goodKey.startsWith('ab') ? 'cd' : 'ab';
      const badKey = `${badPrefix.repeat(32)}.pdf`;
      mkdirSync(join(dir, badPrefix));
      writeFileSync(join(dir, badPrefix, badKey), 'not what the name says');
      // on PostgreSQL the store is the database; on PGlite, a media dir given by the operator
      const config = testConfig(target, t.database.engine === 'pglite' ? { mediaDir: join(target, 'shared-media') } : {});
      const store = createMediaStore(config, t.database);
      expect(await migrateMediaDir(dir, store)).toEqual({ moved: 1, skipped: [join(dir, badPrefix, badKey)] });
      expect(readdirSync(join(dir, goodKey.slice(0, 2)))).toEqual([]);
      const opened = await store.open(goodKey);
      expect(opened?.size).toBe(good.length);
      expect((await readAll(opened?.read() as Readable)).equals(good)).toBe(true);
      // again: nothing left to move, nothing broken
      expect(await migrateMediaDir(dir, store)).toEqual({ moved: 0, skipped: [join(dir, badPrefix, badKey)] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(target, { recursive: true, force: true });
    }
  });
});
