import type { Insertable } from 'kysely';
import type { DB, Db, Tx } from '../db/index.js';
import { withTx } from '../db/index.js';
import { type ErrorDetail, found, validationError } from '../errors.js';
import { noteChange } from '../events/index.js';
import { returnStock } from '../products/index.js';
import { countedTotal, runList, runListPage, selectByIds } from '../reads/index.js';
import {
  creationTimes,
  customFieldsDetails,
  deleteRecord,
  isId,
  lockAndMergeCustomFields,
  lockedCurrent,
  missingReferences,
  newCustomFields,
  newId,
  pastTimestampDetails,
} from '../shared/index.js';
import { generateOrderNumber } from './order-numbers.js';
import type { CreateOrderInput, Order, OrderListQuery, UpdateOrderInput } from './orders.schema.js';
import {
  completeAddress,
  completeCartItem,
  completeRefund,
  completeTracking,
  findOrderRow,
  insertOrder,
  insertOrderUnlessNumberTaken,
  listSpec,
  lockUnrestockedMoves,
  selectOrderList,
  selectOrders,
  toOrderOutput,
  unsetOrdersCustomer,
  updateOrderRow,
} from './orders.sql.js';
import { planOrderStock, takeOrderStock } from './stock.js';

const GENERATION_ATTEMPTS = 8;
const json = (value: unknown) => JSON.stringify(value);
const jsonOrNull = (value: object | null | undefined) => (value ? json(value) : null);

/** An empty refund object says nothing: it neither creates nor changes a refund. */
const hasFields = (refund: object | null | undefined): refund is object => refund != null && Object.keys(refund).length > 0;

type NewOrder = Omit<Insertable<DB['orders']>, 'custom_order_id'>;

/** The checks beyond the schema: a past createdAt, a userId of this store (reported with the stock's own checks, all at once). */
async function createDetails(db: Db, storeId: string, input: CreateOrderInput): Promise<ErrorDetail[]> {
  return [
    ...pastTimestampDetails(input.createdAt, 'createdAt'),
    ...customFieldsDetails(newCustomFields(input.customFields)),
    ...(input.userId == null ? [] : await missingReferences(db, 'customers', storeId, [input.userId], 'userId', true)),
  ];
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
    custom_fields: json(newCustomFields(input.customFields)),
    created_at: createdAt,
    updated_at: updatedAt,
  };
}

/** A generated number that is taken (by any order, generated or supplied) is skipped; a supplied one fails with DUPLICATE_VALUE. */
async function insertWithGeneratedNumber(db: Db, order: NewOrder) {
  for (let attempt = 0; attempt < GENERATION_ATTEMPTS; attempt++) {
    const row = await insertOrderUnlessNumberTaken(db, { ...order, custom_order_id: generateOrderNumber() });
    if (row) return row;
  }
  throw new Error(`no free order number after ${GENERATION_ATTEMPTS} attempts`);
}

/** With inventoryBehaviour "decrement" the order takes its variants' stock in the same transaction, or is not created (400, 409). */
export function createOrder(db: Db, storeId: string, input: CreateOrderInput): Promise<Order> {
  return withTx(db, async (trx) => {
    const plan = await planOrderStock(trx, storeId, input, await createDetails(trx, storeId, input));
    const order = { ...toNewOrder(storeId, input), ...plan.columns };
    const supplied = input.customOrderId?.trim();
    const row = supplied ? await insertOrder(trx, { ...order, custom_order_id: supplied }) : await insertWithGeneratedNumber(trx, order);
    // The stock last: the variants' row locks are then held only until the COMMIT that follows.
    await takeOrderStock(trx, storeId, plan);
    return toOrderOutput(row);
  });
}

export async function getOrder(db: Db, storeId: string, id: string): Promise<Order> {
  const row = found(isId(id) && (await findOrderRow(db, storeId, id)), 'Order');
  return toOrderOutput(row);
}

/** The store's orders among `ids` as GET returns them, in the order of `ids`, in one statement. */
export async function getOrdersByIds(db: Db, storeId: string, ids: string[]): Promise<Order[]> {
  const rows = await selectByIds(selectOrders(db, storeId), ids);
  return rows.map(toOrderOutput);
}

/** If-Match's current version: the order as GET returns it, row locked. */
export const currentOrder = (id: string) => lockedCurrent('orders', id, getOrder);

/**
 * Updates the supplied fields. `restock: true` (only with orderStatus "cancelled") puts a decrement
 * order's stock back the first time; on a bypass order, or once restocked, it changes no stock.
 */
export async function updateOrder(db: Db, storeId: string, id: string, input: UpdateOrderInput): Promise<Order> {
  if (input.restock && input.orderStatus?.trim() !== 'cancelled') {
    throw validationError([{ field: 'restock', in: 'body', message: 'only together with orderStatus "cancelled"' }]);
  }
  const update = async (trx: Tx) => {
    const now = new Date();
    const customFields = input.customFields && (await lockAndMergeCustomFields(trx, 'orders', storeId, id, input.customFields));
    if (input.customFields && customFields === undefined) return undefined;
    const restocked = input.restock === true && (await restock(trx, storeId, id, now));
    return updateOrderRow(trx, storeId, id, input, now, restocked, customFields);
  };
  return toOrderOutput(found(isId(id) && (await withTx(db, update)), 'Order'));
}

/** Whether this call put the order's stock back (the first restock of a decrement order). */
async function restock(trx: Tx, storeId: string, id: string, now: Date): Promise<boolean> {
  const moves = await lockUnrestockedMoves(trx, storeId, id);
  if (!moves) return false;
  await returnStock(trx, storeId, moves, now);
  return true;
}

/**
 * Before a customer's delete: its orders lose their userId (their updatedAt moves) and, as their
 * representation changed, each gets its `order.updated` event with the customer's delete.
 */
export async function detachCustomerOrders(trx: Tx, storeId: string, customerId: string): Promise<void> {
  for (const id of await unsetOrdersCustomer(trx, storeId, customerId)) {
    noteChange(trx, 'order.updated', id, () => getOrder(trx, storeId, id));
  }
}

/** Deletes the order (to undo a failed migration); stock is not put back: cancel with restock first for that. */
export function deleteOrder(db: Db, storeId: string, id: string): Promise<{ id: string }> {
  return withTx(db, (trx) => deleteRecord(trx, 'orders', storeId, id, 'Order'));
}

export async function listOrders(db: Db, storeId: string, query: OrderListQuery) {
  const base = selectOrderList(db, storeId, query);
  // status and paymentStatus are counter keys; a customer's orders are counted (few, and indexed).
  const total =
    query.userId === undefined
      ? () => countedTotal(db, storeId, { list: 'orders', status: query.status, paymentStatus: query.paymentStatus })
      : undefined;
  const { rows, pagination } = await runList(base, query, listSpec, { db, storeId, total });
  return { data: rows.map(toOrderOutput), pagination };
}

/** A page of the same list without its total (runListPage: no count, a previous page by `before`): the console's. */
export async function listOrderPage(db: Db, storeId: string, query: OrderListQuery) {
  const { rows, nextCursor, prevCursor } = await runListPage(selectOrderList(db, storeId, query), query, listSpec, { db, storeId });
  return { data: rows.map(toOrderOutput), nextCursor, prevCursor };
}
