import type { Tx } from '../db/index.js';
import { invalidField } from '../errors.js';
import { appendEvents } from '../events/index.js';
import { compileBodyCheck } from '../http/index.js';
import { changesNothing, IGNORED_IN_LINES, suppliedColumns, withoutIgnored } from '../shared/index.js';
import { CreateOrderBody, type CreateOrderInput, type Order, type UpdateOrderInput } from './orders.schema.js';
import { createOrder, updateOrder } from './orders.service.js';
import { completeRefund, completeTracking, lockOrderByNumber, toOrderOutput } from './orders.sql.js';

const validateLine = compileBodyCheck(CreateOrderBody);

/** Besides the id and the timestamps every line drops: when a decrement order was restocked (the service's to set). */
const IGNORED = [...IGNORED_IN_LINES, 'restockedAt'];

/** The fields PATCH /orders/{id} takes, as the line supplies them (never `restock`: no POST body has it). */
const changesOf = (input: CreateOrderInput): UpdateOrderInput =>
  suppliedColumns({
    orderStatus: input.orderStatus,
    paymentStatus: input.paymentStatus,
    trackingInfo: input.trackingInfo,
    refund: input.refund,
  });

/**
 * The fields `changes` would show once PATCH has stored them on `current`: statuses trimmed, tracking
 * entries completed with nulls, the refund merged field by field (an empty one changes nothing).
 */
function shownAfter(changes: UpdateOrderInput, current: Order): Partial<Order> {
  const { refund } = changes;
  const merged = refund && Object.keys(refund).length > 0 ? completeRefund({ ...current.refund, ...refund }) : current.refund;
  return {
    orderStatus: changes.orderStatus?.trim(),
    paymentStatus: changes.paymentStatus?.trim(),
    trackingInfo: changes.trackingInfo?.map(completeTracking),
    refund: refund === undefined ? undefined : refund === null ? null : merged,
  };
}

/**
 * One import line of orders (the body POST /orders takes), upserted by `customOrderId` (compared
 * case-insensitively, as its uniqueness is). A new order is created as POST would create it: `userId` must
 * name a customer of the store, `inventoryBehaviour: "decrement"` takes stock (or fails the line with 409).
 * A known order is updated as PATCH would update it: orderStatus, paymentStatus, trackingInfo (replaced),
 * refund (merged); the rest of an order is its historical snapshot and stays. A line must carry its
 * customOrderId: without one, the order would get a generated number and every re-import would create it
 * again. A matched line that would change nothing writes nothing.
 */
export async function importOrderLine(trx: Tx, storeId: string, line: unknown): Promise<'created' | 'updated'> {
  const input = validateLine(withoutIgnored(line, IGNORED));
  const key = input.customOrderId?.trim();
  if (!key) throw invalidField('customOrderId', 'is required in an import line: it is the key the line is matched by');
  const current = await lockOrderByNumber(trx, storeId, key);
  if (!current) {
    await appendEvents(trx, storeId, { type: 'order.created', data: await createOrder(trx, storeId, input) });
    return 'created';
  }
  const changes = changesOf(input);
  const shown = toOrderOutput(current);
  if (!changesNothing(shownAfter(changes, shown), shown)) {
    await appendEvents(trx, storeId, { type: 'order.updated', data: await updateOrder(trx, storeId, current.id, changes) });
  }
  return 'updated';
}
