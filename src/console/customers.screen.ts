import { html } from 'ghtml';
import { CustomerListQuery, listCustomerPage } from '../customers/index.js';
import { registerRecordScreen } from './records.js';
import type { ConsoleRouter } from './router.js';
import type { ScreenDeps } from './screen-deps.js';
import { type Cell, facts, table } from './view.js';

const nameOf = (customer: { firstName?: string | null; lastName?: string | null; email?: string | null }) =>
  [customer.firstName, customer.lastName].filter(Boolean).join(' ') || customer.email || '';

/** Customers, each with its addresses (GET /customers/{id}/addresses). */
export function registerCustomersScreen(router: ConsoleRouter, { api, ctx }: ScreenDeps): void {
  registerRecordScreen(
    router,
    { api, db: ctx.db },
    {
      nav: 'Customers',
      resource: '/customers',
      apiQuery: CustomerListQuery,
      async page(db, storeId, query) {
        const { texts, nextCursor, prevCursor } = await listCustomerPage(db, storeId, query);
        return { records: texts.map((text) => JSON.parse(text)), nextCursor, prevCursor };
      },
      columns: [
        { label: 'Name', value: nameOf },
        { label: 'Email', value: (customer) => customer.email },
        { label: 'Phone', value: (customer) => customer.phoneNumber },
        { label: 'Created', value: (customer) => customer.createdAt },
      ],
      titleOf: nameOf,
      async details(customer, consoleApi, session) {
        const addresses = (await consoleApi.get(session, `/customers/${encodeURIComponent(customer.id)}/addresses`)).body.data as Record<
          string,
          unknown
        >[];
        const rows: Cell[][] = addresses.map((address) => [
          address.name as string,
          [address.house, address.street, address.landmark].filter(Boolean).join(', '),
          address.city as string,
          address.stateName as string,
          address.countryName as string,
          address.pincode as string,
          address.phone as string,
          address.isDefault ? 'yes' : '',
        ]);
        return html`!${facts([
          ['Email', customer.email],
          ['Phone', customer.phoneNumber],
          ['Business', customer.businessName],
          ['Created', customer.createdAt],
          ['Updated', customer.updatedAt],
        ])}<h2>Addresses</h2>!${table('Addresses', ['Name', 'Street', 'City', 'State', 'Country', 'Postcode', 'Phone', 'Default'], rows)}`;
      },
    },
  );
}
