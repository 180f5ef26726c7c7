import { setSavepoint, type Tx } from '../db/index.js';
import { AppError, invalidField } from '../errors.js';
import type { AfterWork, ImportBatchApplier, ImportBatchResult, ImportHandler, ImportLineOptions } from '../shared/index.js';
import { changesNothing, compileBodyCheck, IGNORED_IN_LINES, mergeCustomFields, suppliedColumns, withoutIgnored } from '../shared/index.js';
import { CreateOrderBody, type CreateOrderInput, Order, type UpdateOrderInput } from './orders.schema.js';
import { createOrder, updateOrder } from './orders.service.js';
import { completeRefund, completeTracking, customerIdsByEmail, lockOrderByNumber, toOrderOutput } from './orders.sql.js';

// An order as GET returns it is a valid line: its read-only names are ignored.
const validateLine = compileBodyCheck(CreateOrderBody, Order);

/**
 * What a line drops: the id, updatedAt, and when a decrement order was restocked (the service's to set).
 * Unlike other lines, an order line keeps its createdAt: a historical order created by the line keeps its
 * date (as POST /orders takes it); on a known order it changes nothing (PATCH takes no createdAt).
 */
const IGNORED = [...IGNORED_IN_LINES.filter((name) => name !== 'createdAt'), 'restockedAt'];

/** The fields PATCH /orders/{id} takes, as the line supplies them (never `restock`: no POST body has it). */
const changesOf = (input: CreateOrderInput): UpdateOrderInput =>
  suppliedColumns({
    orderStatus: input.orderStatus,
    paymentStatus: input.paymentStatus,
    trackingInfo: input.trackingInfo,
    refund: input.refund,
    customFields: input.customFields,
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
    customFields: changes.customFields && mergeCustomFields(current.customFields, changes.customFields),
  };
}

/** An order line checked as the POST body (its read-only names ignored). */
const checkLine = (line: unknown, handling: ImportLineOptions['handling']) => validateLine(withoutIgnored(line, IGNORED), handling);

/**
 * The email an order line is linked to its customer by: its contactEmail, when the line names no userId
 * (absent; an explicit null stays null). Shopify's order export names the customer only by email.
 */
const emailToLink = (input: CreateOrderInput) =>
  input.userId === undefined ? input.contactEmail?.trim().toLowerCase() || undefined : undefined;

/** The line's order, given the store's customer of its email (when it names none and one exists). */
function linked(input: CreateOrderInput, customers: ReadonlyMap<string, string>): CreateOrderInput {
  const email = emailToLink(input);
  const userId = email === undefined ? undefined : customers.get(email);
  return userId === undefined ? input : { ...input, userId };
}

/**
 * An order line, upserted by `customOrderId` (compared case-insensitively, as its uniqueness is). A new order
 * is created as POST would create it: `userId` must name a customer of the store, `inventoryBehaviour:
 * "decrement"` takes stock (or fails the line with 409). A known order is updated as PATCH would update it:
 * orderStatus, paymentStatus, trackingInfo (replaced), refund (merged); the rest of an order is its
 * historical snapshot and stays (its userId too). A line must carry its customOrderId: without one, the order
 * would get a generated number and every re-import would create it again. A matched line that would change
 * nothing writes nothing.
 */
async function upsertOrder(trx: Tx, storeId: string, input: CreateOrderInput, afterWork: AfterWork): Promise<'created' | 'updated'> {
  const key = input.customOrderId?.trim();
  if (!key) throw invalidField('customOrderId', 'is required in an import line: it is the key the line is matched by');
  const current = await lockOrderByNumber(trx, storeId, key);
  if (!current) {
    await afterWork.append(trx, storeId, { type: 'order.created', data: await createOrder(trx, storeId, input) });
    return 'created';
  }
  const changes = changesOf(input);
  const shown = toOrderOutput(current);
  if (!changesNothing(shownAfter(changes, shown), shown)) {
    await afterWork.append(trx, storeId, { type: 'order.updated', data: await updateOrder(trx, storeId, current.id, changes) });
  }
  return 'updated';
}

/**
 * One import line of orders (the body POST /orders takes; upsertOrder). A line without userId whose
 * contactEmail is a customer's email (case-insensitively) creates the order of that customer, for CSV and
 * NDJSON lines alike; otherwise the order has no customer, as before.
 */
export async function importOrderLine(
  trx: Tx,
  storeId: string,
  line: unknown,
  _text: string,
  { handling, afterWork }: ImportLineOptions,
): Promise<'created' | 'updated'> {
  const input = checkLine(line, handling);
  const email = emailToLink(input);
  return upsertOrder(trx, storeId, linked(input, await customerIdsByEmail(trx, storeId, email ? [email] : [])), afterWork);
}

/** One line inside the batch, under its own savepoint: its outcome, or its AppError (its writes undone). */
async function upsertAlone(trx: Tx, storeId: string, input: CreateOrderInput, afterWork: AfterWork): Promise<ImportBatchResult> {
  const point = await setSavepoint(trx, 'import_order', [afterWork]);
  try {
    const outcome = await upsertOrder(trx, storeId, input, afterWork);
    await point.release();
    return outcome;
  } catch (error) {
    // anything but the API's own 4xx (a constraint, the database going away) leaves the batch to the per-line handler
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    await point.rollBack();
    return error;
  }
}

/**
 * The orders’ batch applier (src/shared/import-lines.ts): the batch's customers looked up by email in one
 * statement instead of one per line, then each line in file order as importOrderLine would apply it.
 */
const importOrderBatch: ImportBatchApplier = async (trx, storeId, lines, { handling, afterWork }) => {
  const checked = lines.map((line) => {
    try {
      return checkLine(line.value, handling);
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
  });
  const emails = checked.flatMap((input) => {
    const email = input instanceof AppError ? undefined : emailToLink(input);
    return email === undefined ? [] : [email];
  });
  const customers = await customerIdsByEmail(trx, storeId, emails);
  const results: ImportBatchResult[] = [];
  for (const input of checked)
    results.push(input instanceof AppError ? input : await upsertAlone(trx, storeId, linked(input, customers), afterWork));
  return results;
};

/** The orders' import: the per-line handler, with the batch applier in front of it. */
export const importOrders: ImportHandler = { line: importOrderLine, batch: importOrderBatch };
