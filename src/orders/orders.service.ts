import { type Insertable, sql, type UpdateObject } from 'kysely';
import type { Db } from '../db/database.js';
import type { DB } from '../db/tables.js';
import { notFound, registerUniqueConstraint, validationError } from '../errors.js';
import { creationTimes, pastTimestampDetails } from '../shared/common.schema.js';
import { isId, newId } from '../shared/ids.js';
import { runList } from '../shared/list.js';
import { missingReferences } from '../shared/references.js';
import { generateOrderNumber } from './order-numbers.js';
import type { CreateOrderInput, Order, OrderListQuery, UpdateOrderInput } from './orders.schema.js';
import {
  COLUMNS,
  completeAddress,
  completeCartItem,
  completeRefund,
  completeTracking,
  listSpec,
  selectOrders,
  toOrderOutput,
} from './orders.sql.js';
import type { OrderTable } from './orders.tables.js';

registerUniqueConstraint('orders_custom_order_id_key', 'customOrderId');

const GENERATION_ATTEMPTS = 8;
const missing = () => notFound('Order');
const json = (value: unknown) => JSON.stringify(value);
const jsonOrNull = (value: object | null | undefined) => (value ? json(value) : null);

/** An empty refund object says nothing: it neither creates nor changes a refund. */
const hasFields = (refund: object | null | undefined): refund is object => refund != null && Object.keys(refund).length > 0;

type NewOrder = Omit<Insertable<OrderTable>, 'custom_order_id'>;

/** The checks beyond the schema, all reported at once: a past createdAt, a userId of this store. */
async function checkCreate(db: Db, storeId: string, input: CreateOrderInput): Promise<void> {
  const details = [
    ...pastTimestampDetails(input.createdAt, 'createdAt'),
    ...(input.userId == null ? [] : await missingReferences(db, 'customers', storeId, [input.userId], 'userId', true)),
  ];
  if (details.length) throw validationError(details);
}

function toNewOrder(storeId: string, input: CreateOrderInput): NewOrder {
  const { createdAt, updatedAt } = creationTimes(input.createdAt);
  return {
    store_id: storeId,
    id: newId(),
    user_id: input.userId ?? null,
    cart_items: json(input.cartItems.map(completeCartItem)),
    shipping_address: jsonOrNull(completeAddress(input.shippingAddress)),
    billing_address: jsonOrNull(completeAddress(input.billingAddress)),
    contact_email: input.contactEmail ?? null,
    order_status: input.orderStatus?.trim() ?? 'pending',
    payment_method: input.paymentMethod ?? null,
    payment_status: input.paymentStatus?.trim() ?? 'pending',
    sub_total: input.subTotal,
    shipping_charge: input.shippingCharge ?? null,
    tax_amount: input.taxAmount ?? null,
    total_amount: input.totalAmount,
    currency: input.currency ?? 'USD',
    tracking_info: json((input.trackingInfo ?? []).map(completeTracking)),
    refund: jsonOrNull(hasFields(input.refund) ? completeRefund(input.refund) : null),
    created_at: createdAt,
    updated_at: updatedAt,
  };
}

/** A caller's number that is taken fails with DUPLICATE_VALUE (the unique index decides, also under concurrency). */
function insertWithNumber(db: Db, order: NewOrder, customOrderId: string) {
  return db
    .insertInto('orders')
    .values({ ...order, custom_order_id: customOrderId })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

/** A generated number that is taken (by any order, generated or supplied) is skipped without aborting the transaction. */
async function insertWithGeneratedNumber(db: Db, order: NewOrder) {
  for (let attempt = 0; attempt < GENERATION_ATTEMPTS; attempt++) {
    const row = await db
      .insertInto('orders')
      .values({ ...order, custom_order_id: generateOrderNumber() })
      .onConflict((conflict) => conflict.doNothing())
      .returning(COLUMNS)
      .executeTakeFirst();
    if (row) return row;
  }
  throw new Error(`no free order number after ${GENERATION_ATTEMPTS} attempts`);
}

export async function createOrder(db: Db, storeId: string, input: CreateOrderInput): Promise<Order> {
  await checkCreate(db, storeId, input);
  const order = toNewOrder(storeId, input);
  const supplied = input.customOrderId?.trim();
  const row = supplied ? await insertWithNumber(db, order, supplied) : await insertWithGeneratedNumber(db, order);
  return toOrderOutput(row);
}

export async function getOrder(db: Db, storeId: string, id: string): Promise<Order> {
  const row = isId(id) ? await selectOrders(db, storeId).where('id', '=', id).executeTakeFirst() : undefined;
  if (!row) throw missing();
  return toOrderOutput(row);
}

/** trackingInfo replaces the list; refund is merged field by field in SQL, so concurrent merges never lose a field. */
function toOrderChanges(input: UpdateOrderInput): UpdateObject<DB, 'orders'> {
  const changes: UpdateObject<DB, 'orders'> = { updated_at: new Date() };
  if (input.orderStatus !== undefined) changes.order_status = input.orderStatus.trim();
  if (input.paymentStatus !== undefined) changes.payment_status = input.paymentStatus.trim();
  if (input.trackingInfo !== undefined) changes.tracking_info = json(input.trackingInfo.map(completeTracking));
  if (input.refund === null) changes.refund = null;
  else if (hasFields(input.refund)) {
    changes.refund = sql`coalesce(refund, '{}'::jsonb) || ${json(input.refund)}::jsonb`;
  }
  return changes;
}

export async function updateOrder(db: Db, storeId: string, id: string, input: UpdateOrderInput): Promise<Order> {
  if (!isId(id)) throw missing();
  const row = await db
    .updateTable('orders')
    .set(toOrderChanges(input))
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirst();
  if (!row) throw missing();
  return toOrderOutput(row);
}

export async function listOrders(db: Db, storeId: string, query: OrderListQuery) {
  let base = selectOrders(db, storeId);
  if (query.status !== undefined) base = base.where('order_status', '=', query.status);
  if (query.paymentStatus !== undefined) base = base.where('payment_status', '=', query.paymentStatus);
  if (query.userId !== undefined) base = base.where('user_id', '=', query.userId);
  const { rows, pagination } = await runList(base, query, listSpec);
  return { data: rows.map(toOrderOutput), pagination };
}
