/** What other folders may use of customers. */

export { importCustomerLine } from './customers.import.js';
export { registerCustomerRoutes } from './customers.routes.js';
export { Customer } from './customers.schema.js';
export { getCustomer, getCustomersByIds } from './customers.service.js';
