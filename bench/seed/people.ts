import type { Insertable } from 'kysely';
import type { Db } from '../../src/db/database.js';
import type { DB } from '../../src/db/index.js';
import { completeAddress, completeCartItem } from '../../src/orders/index.js';
import { newId } from '../../src/shared/ids.js';
import { hashPassword } from '../../src/shared/passwords.js';
import { inChunks, insertRows } from './bulk.js';
import type { SeededProduct } from './catalog.js';
import { createdAtOf, customerFixture, type OrderShape, orderAddress, orderNumber, orderShape } from './fixtures.js';

/**
 * Customers and orders, bulk-inserted as the rows createCustomer / createOrder write: the cart
 * lines and addresses go through the service's own completeCartItem / completeAddress, so the
 * stored JSON has the service's shape.
 */

const CHUNK = 2000;
/** Every seeded customer has this password (one scrypt hash shared: 50k hashes would take ~40 minutes). */
export const CUSTOMER_PASSWORD = 'bench-customer-password';

export async function seedCustomers(db: Db, storeId: string, count: number): Promise<string[]> {
  const passwordHash = await hashPassword(CUSTOMER_PASSWORD);
  const ids: string[] = [];
  const now = Date.now();
  await inChunks(db, count, CHUNK, 'customers', async (trx, start, end) => {
    const rows: Insertable<DB['customers']>[] = [];
    for (let i = start; i < end; i++) {
      const fixture = customerFixture(i);
      const createdAt = createdAtOf(i, count, 3, now);
      const id = newId();
      ids.push(id);
      rows.push({
        store_id: storeId,
        id,
        user_name: fixture.userName,
        email: fixture.email,
        password_hash: passwordHash,
        first_name: fixture.firstName,
        last_name: fixture.lastName,
        business_name: null,
        phone_number: fixture.phoneNumber,
        role: 'user',
        created_at: createdAt,
        updated_at: createdAt,
      });
    }
    await insertRows(trx, 'customers', rows);
  });
  return ids;
}

function cartLines(shape: OrderShape, products: SeededProduct[]) {
  return shape.productIndexes.map((index, k) => {
    const { id, title, price, sku } = products[index];
    return completeCartItem({ productId: id, title, price, quantity: shape.quantities[k], sku });
  });
}

/** Money and status columns of an order: exact cents, 8% tax, a flat 5.00 shipping. */
function orderTotals(shape: OrderShape, lines: ReturnType<typeof cartLines>, i: number) {
  const subTotal = Math.round(lines.reduce((sum, line) => sum + line.price * line.quantity, 0) * 100) / 100;
  const tax = Math.round(subTotal * 8) / 100;
  const tracking = shape.status === 'fulfilled' ? [{ trackingNumber: `1Z${i + 1}`, shippingCarrier: 'UPS', trackingUrl: null }] : [];
  return {
    order_status: shape.status,
    payment_method: 'card',
    payment_status: shape.paymentStatus,
    sub_total: subTotal,
    shipping_charge: 5,
    tax_amount: tax,
    total_amount: Math.round((subTotal + 5 + tax) * 100) / 100,
    currency: 'USD',
    tracking_info: JSON.stringify(tracking),
  };
}

interface OrderPlan {
  count: number;
  statusOf: (i: number) => string;
}

function orderRow(storeId: string, i: number, plan: OrderPlan, products: SeededProduct[], customerIds: string[], now: number) {
  const count = plan.count;
  const shape = orderShape(i, products.length, customerIds.length, plan.statusOf(i));
  const customer = shape.customerIndex === null ? null : customerFixture(shape.customerIndex);
  const lines = cartLines(shape, products);
  const address = JSON.stringify(completeAddress(orderAddress(customer, i)));
  const createdAt = createdAtOf(i, count, 3, now);
  return {
    store_id: storeId,
    id: newId(),
    custom_order_id: orderNumber(i),
    user_id: shape.customerIndex === null ? null : customerIds[shape.customerIndex],
    cart_items: JSON.stringify(lines),
    shipping_address: address,
    billing_address: address,
    contact_email: customer?.email ?? `guest${i + 1}@example.test`,
    ...orderTotals(shape, lines, i),
    refund: null,
    created_at: createdAt,
    updated_at: createdAt,
  } satisfies Insertable<DB['orders']>;
}

/** Returns the order ids in index order; `plan` (bench/seed/skew.ts) says how many and each one's status. */
export async function seedOrders(
  db: Db,
  storeId: string,
  plan: OrderPlan,
  products: SeededProduct[],
  customerIds: string[],
): Promise<string[]> {
  const ids: string[] = [];
  const now = Date.now();
  await inChunks(db, plan.count, CHUNK, 'orders', async (trx, start, end) => {
    const rows: Insertable<DB['orders']>[] = [];
    for (let i = start; i < end; i++) {
      const row = orderRow(storeId, i, plan, products, customerIds, now);
      ids.push(row.id);
      rows.push(row);
    }
    await insertRows(trx, 'orders', rows);
  });
  return ids;
}
