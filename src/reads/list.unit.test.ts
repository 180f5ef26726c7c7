import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { runList } from './list.js';
import { ListQuery, type ListSpec } from './list-spec.js';

const db = new Kysely<{ things: { id: string } }>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe('list spec and query schema in step', () => {
  it('refuses a sort key the spec has no SQL for instead of silently sorting by createdAt', async () => {
    const spec: ListSpec = {
      path: '/things',
      sorts: { createdAt: sql`created_at`, updatedAt: sql`updated_at` },
      idColumn: sql`id`,
      search: () => sql`true`,
    };
    const base = db.selectFrom('things').selectAll();
    await expect(runList(base, { page: 1, limit: 10, sort: '-name' }, spec, { db, storeId: 's' })).rejects.toThrow(/sort "name"/);
    await expect(runList(base, { page: 1, limit: 10, sort: 'toString' }, spec, { db, storeId: 's' })).rejects.toThrow(/sort "toString"/);
  });

  it('requires every list to offer the default createdAt sort', () => {
    expect(() => ListQuery(['name'])).toThrow(/createdAt/);
    expect(ListQuery(['createdAt', 'name']).properties.sort.enum).toEqual([
      'createdAt',
      '-createdAt',
      'name',
      '-name',
      'updatedAt',
      '-updatedAt',
    ]);
  });
});
