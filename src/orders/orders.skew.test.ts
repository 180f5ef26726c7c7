import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { planWork, statementsOf } from '../../test/support/statements.js';
import type { OrderListQuery } from './orders.schema.js';
import { listOrders } from './orders.service.js';

/**
 * Status-filtered and searched orders when the matches are the oldest orders and newer ones match
 * nothing (a burst of new pending orders): exact pages and totals, no other store's orders, and
 * plans whose work stays within a multiple of the store's orders (also with the planner pushed to
 * walk a sort index).
 */

let t: TestContext;
let store: TestStore;
let other: TestStore;
const FULFILLED = 24;
const PENDING = 96;
const cartItems = [{ productId: 'p', title: 'T', price: 1, quantity: 1 }];
const fulfilledNumbers: string[] = [];

async function order(who: TestStore, number: string, status: string, total: number, createdAt: Date, email: string) {
  const body = {
    customOrderId: number,
    cartItems,
    subTotal: total,
    totalAmount: total,
    orderStatus: status,
    contactEmail: email,
    createdAt: createdAt.toISOString(),
  };
  const res = await t.call(who, 'POST', '/orders', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

beforeAll(async () => {
  t = await setupTestApp();
  [store, other] = [await t.newStore(), await t.newStore()];
  const start = Date.parse('2023-01-01T00:00:00Z');
  for (let k = 0; k < FULFILLED; k++) {
    fulfilledNumbers.push(`F-${k}`);
    await order(store, `F-${k}`, 'fulfilled', 10 + k, new Date(start + k * 60_000), `vip${k}@shop.test`);
  }
  for (let k = 0; k < PENDING; k++)
    await order(store, `P-${k}`, 'pending', 500 + k, new Date(start + (FULFILLED + k) * 60_000), `buyer${k}@shop.test`);
  // The other store's orders are the newest and match the same search.
  for (let k = 0; k < 10; k++)
    await order(other, `O-${k}`, 'fulfilled', 1, new Date(start + 10_000_000 + k * 60_000), `vip-other${k}@shop.test`);
  await sql`ANALYZE orders`.execute(t.database.db);
});
afterAll(() => t.close());

async function pages(who: TestStore, query: string, limit: number) {
  const numbers: string[] = [];
  const totals = new Set<number>();
  for (let page = 1; ; page++) {
    const res = await t.call(who, 'GET', `/orders?${query}&limit=${limit}&page=${page}`);
    expect(res.status).toBe(200);
    totals.add(res.body.pagination.total);
    if (res.body.data.length === 0) break;
    numbers.push(...res.body.data.map((o: { customOrderId: string }) => o.customOrderId));
  }
  return { numbers, totals: [...totals] };
}

describe('orders when the matches are the oldest', () => {
  it('filters by status and searches exactly, page by page', async () => {
    const newestFirst = [...fulfilledNumbers].reverse();
    expect(await pages(store, 'status=fulfilled', 5)).toEqual({ numbers: newestFirst, totals: [FULFILLED] });
    expect(await pages(store, 'status=fulfilled&sort=-totalAmount', 7)).toEqual({ numbers: newestFirst, totals: [FULFILLED] });
    expect(await pages(store, 'search=VIP', 5)).toEqual({ numbers: newestFirst, totals: [FULFILLED] });
    expect(await pages(store, 'search=vip&status=fulfilled&sort=totalAmount', 10)).toEqual({
      numbers: fulfilledNumbers,
      totals: [FULFILLED],
    });
  });

  it('never shows another store its matches, nor counts them', async () => {
    const theirs = await pages(other, 'search=vip', 4);
    expect(theirs.totals).toEqual([10]);
    expect(theirs.numbers.every((n) => n.startsWith('O-'))).toBe(true);
    expect(await pages(store, 'search=vip-other', 5)).toEqual({ numbers: [], totals: [0] });
  });

  it('does work bounded by the store size, whatever the planner prefers', async () => {
    const storeRows = FULFILLED + PENDING;
    const query = (extra: Partial<OrderListQuery>) => ({ page: 2, limit: 10, sort: '-createdAt', ...extra }) as OrderListQuery;
    const reads: [string, OrderListQuery][] = [
      ['status', query({ status: 'fulfilled' })],
      ['status by total', query({ status: 'fulfilled', sort: '-totalAmount' })],
      ['search', query({ search: 'vip' })],
    ];
    for (const walkSortIndex of [false, true]) {
      await t.database.db.transaction().execute(async (trx) => {
        if (walkSortIndex) await sql`SET LOCAL enable_sort = off`.execute(trx);
        for (const [name, listQuery] of reads) {
          for (const statement of await statementsOf(trx, (db) => listOrders(db, store.id, listQuery))) {
            const work = await planWork(trx, statement);
            expect(work, `${name}${walkSortIndex ? ' (enable_sort off)' : ''}: ${statement.sql.slice(0, 60)}`).toBeLessThan(10 * storeRows);
          }
        }
      });
    }
  });
});
