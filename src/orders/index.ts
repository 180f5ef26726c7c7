/** What other folders may use of orders (the bench seeds and explains through these). */

export { importOrderLine, importOrders } from './orders.import.js';
export { registerOrderRoutes } from './orders.routes.js';
export { MAX_CART_ITEMS, Order, OrderListQuery } from './orders.schema.js';
export { detachCustomerOrders, getOrder, getOrdersByIds, listOrderPage, listOrders } from './orders.service.js';
export { completeAddress, completeCartItem } from './orders.sql.js';
