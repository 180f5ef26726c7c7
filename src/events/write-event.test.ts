import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext } from '../../test/helpers.js';
import { feedOf } from '../../test/support/feed.fixtures.js';
import { withTx } from '../db/index.js';
import { AppError } from '../errors.js';
import { noteChange, writeWithEvent } from './record.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const { eventsOf, body } = feedOf(() => t);

describe('writeWithEvent: a write outside the write door (import lines)', () => {
  it('appends the write’s event and what it noted; a failed write under a savepoint leaves nothing for the next one', async () => {
    const store = await t.newStore();
    const product = await body(store, 'POST', '/products', { title: 'Tee' });
    // Read inside the transaction in real use; a fixed record here (PGlite's one session is the transaction's).
    const loadProduct = async () => ({ id: product.id, title: 'Tee' });
    const events = await eventsOf(store, () =>
      withTx(t.database.db, async (trx) => {
        // line 1: notes a derived change, then fails; the engine rolls back to its savepoint and goes on
        await sql`SAVEPOINT line`.execute(trx);
        const failed = writeWithEvent(trx, store.id, 'collection.created', async () => {
          noteChange(trx, 'product.updated', product.id, loadProduct);
          throw new Error('line refused');
        });
        await expect(failed).rejects.toThrow('line refused');
        await sql`ROLLBACK TO SAVEPOINT line`.execute(trx);
        // line 2: its own event only
        await writeWithEvent(trx, store.id, 'customer.created', async () => ({ id: 'c1', userName: 'ada' }));
        // line 3: its own event and the derived one it noted
        await writeWithEvent(trx, store.id, 'collection.updated', async () => {
          noteChange(trx, 'product.updated', product.id, loadProduct);
          return { id: 'k1', title: 'Summer' };
        });
      }),
    );
    expect(events.map((event) => [event.type, event.data.id])).toEqual([
      ['customer.created', 'c1'],
      ['collection.updated', 'k1'],
      ['product.updated', product.id],
    ]);
  });

  it('a unique violation is the API’s DUPLICATE_VALUE naming the field', async () => {
    const store = await t.newStore();
    await body(store, 'POST', '/customers', { userName: 'ada', password: 'long-secret-1' });
    const error = await withTx(t.database.db, (trx) =>
      writeWithEvent(trx, store.id, 'customer.created', async () => {
        await sql`INSERT INTO customers (store_id, id, user_name, password_hash) VALUES (${store.id}, 'aaaaaaaaaaaaaaaaaaaaaaaa', 'ADA', 'x')`.execute(
          trx,
        );
        return { id: 'never' };
      }),
    ).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 400, code: 'DUPLICATE_VALUE', details: [{ field: 'userName', in: 'body' }] });
  });
});
