import { finished } from 'node:stream/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { type ExportReader, openChunkReader, openSnapshotReader } from './snapshot.js';
import { EXPORT_SOURCES } from './sources.js';
import { exportStream } from './stream.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(async () => t?.close());

const sourceOf = (name: string) => EXPORT_SOURCES.filter((source) => source.name === name)[0];
const openReader = (): Promise<ExportReader> =>
  engine === 'postgres' ? openSnapshotReader(t.database.db) : Promise.resolve(openChunkReader(t.database.db));

/** An export of `name` in chunks of 2, read one chunk at a time. */
async function openExport(store: TestStore, name: string) {
  const reader = await openReader();
  const { table, read } = sourceOf(name);
  const text = async (...args: Parameters<typeof read>) => (await read(...args)).map((record) => `${JSON.stringify(record)}\n`).join('');
  const stream = exportStream({ table, chunk: 2, text, storeId: store.id, updatedSince: null, reader });
  const chunks = stream[Symbol.asyncIterator]();
  const nextLines = async (): Promise<{ id: string; name?: string }[] | null> => {
    const next = await chunks.next();
    return next.done
      ? null
      : String(next.value)
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line));
  };
  const rest = async () => {
    const all = [];
    for (let lines = await nextLines(); lines; lines = await nextLines()) all.push(...lines);
    return all;
  };
  return { reader, stream, nextLines, rest };
}

async function createSets(store: TestStore, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 1; i <= count; i++) ids.push((await t.call(store, 'POST', '/attribute-sets', { name: `Set ${i}` })).body.data.id);
  return ids.sort();
}

describe('export stream', () => {
  it('walks every chunk; products keep their variants across chunk boundaries', async () => {
    const store = await t.newStore();
    for (let i = 1; i <= 5; i++) {
      const reply = await t.call(store, 'POST', '/products', {
        title: `P${i}`,
        price: i,
        options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
      });
      expect(reply.status).toBe(201);
    }
    const { nextLines, rest } = await openExport(store, 'products');
    expect(await nextLines()).toHaveLength(2);
    const others = await rest();
    expect(others).toHaveLength(3);
    for (const product of others) expect((product as unknown as { variants: unknown[] }).variants).toHaveLength(3);
  });

  it(
    engine === 'postgres'
      ? 'is one snapshot: writes committed during the export are not in it'
      : 'reads each chunk in its own transaction: later chunks see writes committed meanwhile',
    async () => {
      const store = await t.newStore();
      const ids = await createSets(store, 5);
      const exported = await openExport(store, 'attributeSets');
      const first = await exported.nextLines();
      expect(first?.map((set) => set.id)).toEqual(ids.slice(0, 2));
      // the API answers while the export is open (PGlite: between two chunks), and commits writes
      expect((await t.call(store, 'PATCH', `/attribute-sets/${ids[2]}`, { name: 'Renamed' })).status).toBe(200);
      expect((await t.call(store, 'DELETE', `/attribute-sets/${ids[3]}`)).status).toBe(200);
      const added = (await t.call(store, 'POST', '/attribute-sets', { name: 'Added later' })).body.data.id as string;
      const rest = await exported.rest();
      if (engine === 'postgres') {
        expect(rest.map((set) => set.id)).toEqual(ids.slice(2));
        expect(rest[0].name).toBe('Set 3');
      } else {
        expect(rest.map((set) => set.id)).toEqual([ids[2], ids[4], added]);
        expect(rest[0].name).toBe('Renamed');
      }
    },
  );

  it('destroyed mid-export (the client went away), it ends its transaction at once', async () => {
    const store = await t.newStore();
    await createSets(store, 5);
    const exported = await openExport(store, 'attributeSets');
    const pid = await exported.reader.read(
      async (db) => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0].pid,
    );
    expect(await exported.nextLines()).toHaveLength(2);
    exported.stream.destroy();
    await finished(exported.stream).catch(() => undefined);
    if (engine === 'postgres') {
      // the snapshot's connection is back in the pool, idle (not idle in transaction)
      const state = await sql<{ state: string }>`select state from pg_stat_activity where pid = ${pid}`.execute(t.database.db);
      expect(state.rows[0]?.state ?? 'gone').not.toMatch(/transaction/);
    }
    expect((await t.call(store, 'GET', '/attribute-sets')).status).toBe(200);
  });
});

describe('GET /exports with a store larger than a chunk', () => {
  it('streams every record once, in id order, each line as GET returns it', async () => {
    const store = await t.newStore();
    // 2,100 sets: three chunks of attribute sets; inserted in one statement (the API path is tested above)
    await sql`INSERT INTO attribute_sets (store_id, id, name, status, created_at, updated_at)
      SELECT ${store.id}, lpad(to_hex(g), 24, '0'), 'set ' || g, 'active', now(), now() FROM generate_series(1, 2100) g`.execute(
      t.database.db,
    );
    const reply = await t.app.inject({
      method: 'GET',
      url: '/api/v1/exports/attributeSets',
      headers: { authorization: `Bearer ${store.token}` },
    });
    expect(reply.statusCode).toBe(200);
    const lines = reply.body.split('\n').filter(Boolean);
    expect(lines).toHaveLength(2100);
    expect(reply.headers['x-total-count']).toBe('2100');
    const ids = lines.map((line) => JSON.parse(line).id as string);
    expect(new Set(ids).size).toBe(2100);
    expect(ids).toEqual([...ids].sort());
    for (const index of [0, 999, 1000, 2099]) {
      const single = await t.app.inject({
        method: 'GET',
        url: `/api/v1/attribute-sets/${ids[index]}`,
        headers: { authorization: `Bearer ${store.token}` },
      });
      expect(single.body).toBe(`{"success":true,"data":${lines[index]}}`);
    }
  });
});
