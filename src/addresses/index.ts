/** What other folders may use of addresses: customers create a first address with the customer; exports read default ones. */
export { registerAddressRoutes } from './addresses.routes.js';
export { AddressBody, type AddressInput, AddressPayload } from './addresses.schema.js';
export { createAddress, getDefaultAddresses, noteCustomerAddressesDeleted } from './addresses.service.js';
