import { createHash } from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type Reply, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { statementsOf } from '../../test/support/statements.js';
import { runList } from './list.js';
import { encodeCursor, useCursorSecret } from './list-cursor.js';
import { ilikeAny, type ListSpec } from './list-spec.js';

/**
 * Keyset cursors (list-cursor.ts) under concurrent writers, and what they cost: no OFFSET, the same
 * statement at any depth, served by the (store_id, updated_at, id) index.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

async function product(store: TestStore, title: string, price?: number): Promise<string> {
  const reply = await t.call(store, 'POST', '/products', { title, ...(price === undefined ? {} : { price }) });
  if (reply.status !== 201) throw new Error(`${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.data.id;
}

/** Follows nextCursor to the end; `during` runs at the same time as each page's request. */
async function cursorWalk(store: TestStore, query: string, limit: number, during: () => Promise<void>): Promise<string[]> {
  const walked: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 200; pages++) {
    const url: string = `/products?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const pending = t.call(store, 'GET', url);
    await during();
    const reply: Reply = await pending;
    expect(reply.status, url).toBe(200);
    walked.push(...reply.body.data.map((row: { id: string }) => row.id));
    cursor = reply.body.pagination.nextCursor;
    if (!cursor) return walked;
  }
  throw new Error('the walk never ended');
}

describe('a cursor walk under concurrent inserts and deletes', () => {
  it('returns every record that exists throughout exactly once, in every sort', { timeout: 240_000 }, async () => {
    const store = await t.newStore();
    const stable: string[] = [];
    for (let i = 0; i < 14; i++) stable.push(await product(store, `Stable ${i % 5}`, i % 4 === 0 ? undefined : i % 3));
    const transient: string[] = [];
    for (let i = 0; i < 8; i++) transient.push(await product(store, `Transient ${i % 4}`, i % 5 === 0 ? undefined : i % 3));
    let n = 0;
    // while each page is read: a new record (on either side of the walk's position, by its values) and one gone
    const write = async () => {
      n++;
      transient.push(await product(store, `New ${n % 7}`, n % 4 === 0 ? undefined : n % 3));
      const gone = transient.splice(n % transient.length, 1)[0];
      expect((await t.call(store, 'DELETE', `/products/${gone}`)).status).toBe(200);
    };
    for (const sort of ['-createdAt', 'price', '-price', 'title', '-updatedAt']) {
      const walked = await cursorWalk(store, `sort=${sort}`, 4, write);
      expect(new Set(walked).size, sort).toBe(walked.length);
      const seen = new Set(walked);
      expect(
        stable.filter((id) => !seen.has(id)),
        sort,
      ).toEqual([]);
    }
  });
});

describe('the cost of a cursor page', () => {
  const spec: ListSpec<readonly ['createdAt']> = {
    path: '/things',
    sorts: { createdAt: sql`created_at`, updatedAt: sql`updated_at` },
    idColumn: sql`id`,
    search: ilikeAny(['title']),
  };

  it('uses no OFFSET, runs the same statement at any depth, and walks the (store_id, updated_at, id) index', {
    timeout: 120_000,
  }, async () => {
    const store = await t.newStore();
    for (let i = 0; i < 12; i++) await product(store, `Thing ${i}`);
    const db = t.database.db;
    const list = (on: typeof db, cursor?: string, search?: string) =>
      runList(
        on.selectFrom('products').select(['id', 'title']).where('store_id', '=', store.id),
        { limit: 2, sort: '-updatedAt', cursor, search },
        spec,
        {
          db: on,
          storeId: store.id,
        },
      );
    for (const search of [undefined, 'thing']) {
      const shapes = new Set<string>();
      let cursor = (await list(db, undefined, search)).pagination.nextCursor;
      let pages = 1;
      let deepest: CompiledQuery | undefined;
      while (cursor) {
        let next: string | null = null;
        const statements = await statementsOf(db, async (recorded) => {
          next = (await list(recorded, cursor as string, search)).pagination.nextCursor;
        });
        for (const statement of statements) {
          expect(statement.sql, statement.sql).not.toMatch(/\boffset\b/i);
          shapes.add(statement.sql);
        }
        deepest = statements.find(
          (statement) => /\(updated_at, id\) </i.test(statement.sql) || /\(match_key, match_id\) </.test(statement.sql),
        );
        expect(deepest, statements.map((s) => s.sql).join('\n')).toBeDefined();
        cursor = next;
        pages++;
      }
      expect(pages).toBe(6);
      // one statement shape for every page after the first: the depth is only in the parameters
      expect(shapes.size, [...shapes].join('\n')).toBeLessThanOrEqual(2);
      if (search === undefined && deepest) {
        const plan = await db.transaction().execute(async (trx) => {
          // a 12-row store would be read whole by any planner: ask what the index does at scale
          await sql`SET LOCAL enable_seqscan = off`.execute(trx);
          await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
          const explained = await trx.executeQuery(
            CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${deepest?.sql}`, [...(deepest?.parameters ?? [])]),
          );
          return JSON.stringify(explained.rows);
        });
        expect(plan).toContain('products_updated_idx');
        expect(plan).not.toContain('"Node Type":"Sort"');
      }
    }
  });

  it('answers a well-formed cursor holding a value of the wrong type as a bad cursor (400), not a 500', async () => {
    const store = await t.newStore();
    await product(store, 'Thing');
    const db = t.database.db;
    const binding = JSON.stringify([
      '/things',
      [],
      [
        ['limit', 2],
        ['sort', '-updatedAt'],
      ],
    ]);
    const forged = encodeCursor({ key: 'not a time', id: '0'.repeat(24) }, binding);
    const base = db.selectFrom('products').select(['id']).where('store_id', '=', store.id);
    const list = runList(base, { limit: 2, sort: '-updatedAt', cursor: forged }, spec, { db, storeId: store.id });
    await expect(list).rejects.toMatchObject({ status: 400, details: [{ field: 'cursor', in: 'query' }] });
  });
});

describe('cursors are signed by the server (HMAC keyed with its secret)', () => {
  const decode = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  const encode = (body: object) => Buffer.from(JSON.stringify(body)).toString('base64url');

  async function firstCursor(store: TestStore): Promise<string> {
    for (const title of ['A', 'B', 'C']) await product(store, title);
    const page = await t.call(store, 'GET', '/products?limit=1&sort=title');
    return page.body.pagination.nextCursor;
  }

  it('refuses a cursor whose position was edited, or re-hashed without the key as a client could', async () => {
    const store = await t.newStore();
    const cursor = await firstCursor(store);
    const body = decode(cursor);
    const binding = JSON.stringify([
      '/products',
      [],
      [
        ['limit', 1],
        ['sort', 'title'],
      ],
    ]);
    const edited = { ...body, k: 'Z' };
    const rehashed = {
      ...edited,
      h: createHash('sha256')
        .update(JSON.stringify([binding, edited.k, edited.i]))
        .digest('base64url')
        .slice(0, 22),
    };
    for (const forged of [edited, rehashed, { ...body, h: body.h.replace(/^./, (c: string) => (c === 'A' ? 'B' : 'A')) }]) {
      const error = expectError(
        await t.call(store, 'GET', `/products?limit=1&sort=title&cursor=${encode(forged)}`),
        400,
        'VALIDATION_ERROR',
      );
      expect(error.details).toEqual([expect.objectContaining({ field: 'cursor', in: 'query' })]);
    }
    expect((await t.call(store, 'GET', `/products?limit=1&sort=title&cursor=${cursor}`)).body.data[0].title).toBe('B');
  });

  it('a cursor signed under another secret is refused; the same secret (another process) follows it', async () => {
    const store = await t.newStore();
    const cursor = await firstCursor(store);
    try {
      useCursorSecret('another deployment secret, at least thirty-two bytes');
      expectError(await t.call(store, 'GET', `/products?limit=1&sort=title&cursor=${cursor}`), 400, 'VALIDATION_ERROR');
      useCursorSecret(t.config.jwtSecret);
      expect((await t.call(store, 'GET', `/products?limit=1&sort=title&cursor=${cursor}`)).status).toBe(200);
    } finally {
      useCursorSecret(t.config.jwtSecret);
    }
  });
});

describe('an out-of-range date-time in a query is a 400 naming the parameter', () => {
  it('updatedSince the database cannot store (year 0, past 9999, an offset past 15:59) on lists and exports', async () => {
    const store = await t.newStore();
    const values = ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59-23:59', '0001-01-01T00:00:00%2B23:59', '2020-01-01T00:00:00%2B16:00'];
    for (const path of ['/products', '/jobs', '/orders', '/exports/products']) {
      for (const value of values) {
        const error = expectError(await t.call(store, 'GET', `${path}?updatedSince=${value}`), 400, 'VALIDATION_ERROR');
        expect(error.details).toEqual([expect.objectContaining({ field: 'updatedSince', in: 'query' })]);
      }
    }
    for (const value of ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '2020-06-30T23:59:60Z', '2020-01-01T00:00:00%2B14:00']) {
      expect((await t.call(store, 'GET', `/products?updatedSince=${value}`)).status).toBe(200);
    }
  });
});
