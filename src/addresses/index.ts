/** What other folders may use of addresses: customers create a first address with the customer. */
export { registerAddressRoutes } from './addresses.routes.js';
export { AddressBody, type AddressInput } from './addresses.schema.js';
export { createAddress, noteCustomerAddressesDeleted } from './addresses.service.js';
export type { AddressTables } from './addresses.tables.js';
