/** What other folders may use of customers. */
export { registerCustomerRoutes } from './customers.routes.js';
export { getCustomer } from './customers.service.js';
export type { CustomerTables } from './customers.tables.js';
