import { html } from 'ghtml';
import { listOrderPage, OrderListQuery } from '../orders/index.js';
import { registerRecordScreen } from './records.js';
import type { ConsoleRouter } from './router.js';
import type { ScreenDeps } from './screen-deps.js';
import { type Cell, facts, link, table } from './view.js';

const money = (amount: unknown, currency?: string | null) =>
  amount === null || amount === undefined ? '' : `${amount}${currency ? ` ${currency}` : ''}`;

/** Orders: lines, totals, statuses, dates. */
export function registerOrdersScreen(router: ConsoleRouter, { api, ctx }: ScreenDeps): void {
  registerRecordScreen(
    router,
    { api, db: ctx.db },
    {
      nav: 'Orders',
      resource: '/orders',
      apiQuery: OrderListQuery,
      async page(db, storeId, query) {
        const { data, nextCursor, prevCursor } = await listOrderPage(db, storeId, query);
        return { records: data, nextCursor, prevCursor };
      },
      filters: [
        { name: 'status', label: 'Status' },
        { name: 'paymentStatus', label: 'Payment status' },
      ],
      columns: [
        { label: 'Order', value: (order) => order.customOrderId ?? order.id },
        { label: 'Status', value: (order) => order.orderStatus },
        { label: 'Payment', value: (order) => order.paymentStatus },
        { label: 'Total', value: (order) => money(order.totalAmount, order.currency) },
        { label: 'Created', value: (order) => order.createdAt },
      ],
      titleOf: (order) => `Order ${order.customOrderId ?? order.id}`,
      async details(order) {
        const lines: Cell[][] = ((order.cartItems ?? []) as Record<string, unknown>[]).map((line) => [
          line.productId
            ? link(`/console/products/${encodeURIComponent(String(line.productId))}`, String(line.title ?? line.productId))
            : (line.title as string),
          line.sku as string,
          line.quantity as number,
          money(line.price, order.currency),
        ]);
        return html`!${facts([
          ['Status', order.orderStatus],
          ['Payment', `${order.paymentStatus ?? ''}${order.paymentMethod ? ` (${order.paymentMethod})` : ''}`],
          ['Customer', order.userId ? link(`/console/customers/${encodeURIComponent(order.userId)}`, order.userId) : order.contactEmail],
          ['Created', order.createdAt],
          ['Updated', order.updatedAt],
        ])}<h2>Lines</h2>!${table('Lines', ['Product', 'SKU', 'Quantity', 'Price'], lines)}
<h2>Totals</h2>!${facts([
          ['Subtotal', money(order.subTotal, order.currency)],
          ['Tax', money(order.taxAmount, order.currency)],
          ['Shipping', money(order.shippingCharge, order.currency)],
          ['Total', money(order.totalAmount, order.currency)],
        ])}`;
      },
    },
  );
}
