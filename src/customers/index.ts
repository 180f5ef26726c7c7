/** What other folders may use of customers. */
export { registerCustomerRoutes } from './customers.routes.js';
export { getCustomer } from './customers.service.js';
export type { CustomerTables } from './customers.tables.js';
export { Customer } from './customers.schema.js';
export { getCustomersByIds } from './customers.service.js';
