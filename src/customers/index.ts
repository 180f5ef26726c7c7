/** What other folders may use of customers. */

export { rebuildCustomerDocuments } from './customers.documents.js';
export { importCustomerLine } from './customers.import.js';
export { customerRecordKind, registerCustomerRoutes } from './customers.routes.js';
export { Customer, CustomerListQuery } from './customers.schema.js';
export { getCustomer, getCustomersByIds, getCustomerTextsByIds, listCustomerPage } from './customers.service.js';
