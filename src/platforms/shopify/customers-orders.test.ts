import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../../test/helpers.js';
import { csvFixture, csvRow, importCsv, postCsv } from '../../../test/support/csv.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const customerByUserName = async (store: TestStore, userName: string) => {
  const listed = (await t.call(store, 'GET', '/customers?limit=100')).body.data as { userName: string; id: string }[];
  return listed.find((customer) => customer.userName === userName);
};

const orderByNumber = async (store: TestStore, number: string) => {
  const listed = (await t.call(store, 'GET', '/orders?limit=100')).body.data as { customOrderId: string }[];
  return listed.find((order) => order.customOrderId === number) as Record<string, unknown>;
};

describe('Shopify customer CSV (POST /imports?resource=customers, text/csv)', () => {
  it('creates a customer per record, without a password, with its default address', async () => {
    const store = await t.newStore();
    const { job, errors } = await importCsv(t, store, 'customers', csvFixture('shopify-customers.csv'));
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ status: 'succeeded', total: 4, created: 4, failed: 0 });
    const ada = await customerByUserName(store, 'ada@example.com');
    expect(ada).toMatchObject({
      email: 'ada@example.com',
      firstName: 'Ada',
      phoneNumber: '+16135550100',
      businessName: 'Example Works, Ltd',
    });
    const addresses = (await t.call(store, 'GET', `/customers/${ada?.id}/addresses`)).body.data;
    expect(addresses).toEqual([
      expect.objectContaining({ street: '1 Fictional Lane', house: 'Unit 2', city: 'Testville', pincode: '02928', isDefault: true }),
    ]);
    // no password: the customer cannot sign in until PATCH gives it one
    const row = await t.database.db
      .selectFrom('customers')
      .select('password_hash')
      .where('id', '=', ada?.id as string)
      .executeTakeFirst();
    expect(row?.password_hash).toBeNull();
    expect(await customerByUserName(store, '+442071838750')).toMatchObject({ email: null, firstName: 'Cy' });
  });

  it('names the record and the column of a bad cell; a record without email, phone or Username fails alone', async () => {
    const store = await t.newStore();
    const file = [
      csvRow(['First Name', 'Last Name', 'Email', 'Phone']),
      csvRow(['Ok', '', 'ok@example.com', '']),
      csvRow(['Bad', '', 'not-an-email', '']),
      csvRow(['Nobody', '', '', '']),
    ].join('\n');
    const { job, errors } = await importCsv(t, store, 'customers', file);
    expect(job).toMatchObject({ status: 'succeeded', total: 3, created: 1, failed: 2 });
    expect(errors).toEqual([
      expect.objectContaining({ line: 3, column: 'Email', code: 'VALIDATION_ERROR' }),
      expect.objectContaining({ line: 4, code: 'VALIDATION_ERROR', details: [expect.objectContaining({ field: 'userName' })] }),
    ]);
  });

  it('refuses a customer file without the columns that make it one, naming them', async () => {
    const store = await t.newStore();
    const reply = await postCsv(t, store, 'customers', 'Email,Phone\na@example.com,\n');
    expectError(reply, 400, 'VALIDATION_ERROR');
    expect(reply.body.error.details).toContainEqual({ field: 'First Name', in: 'body', message: 'missing column (shopify customers)' });
  });
});

describe('Shopify order CSV (POST /imports?resource=orders, text/csv)', () => {
  it('one order per Name, a cart item per row, its Created at, statuses as given, stock untouched', async () => {
    const store = await t.newStore();
    const mug = await t.call(store, 'POST', '/products', { title: 'Mug', sku: 'MUG-1', totalStock: 5 });
    const { job, errors } = await importCsv(t, store, 'orders', csvFixture('shopify-orders.csv'));
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ status: 'succeeded', total: 3, created: 3, failed: 0 });
    expect(await orderByNumber(store, '#1001')).toMatchObject({
      createdAt: '2026-09-03T14:14:00.000Z',
      paymentStatus: 'paid',
      orderStatus: 'fulfilled',
      currency: 'USD',
      contactEmail: 'ada@example.com',
      inventoryBehaviour: 'bypass',
      totalAmount: 56.29,
    });
    const sticker = await orderByNumber(store, '#1003');
    expect(sticker).toMatchObject({ paymentStatus: 'refunded', orderStatus: 'unfulfilled', contactEmail: null });
    expect((sticker.cartItems as unknown[]).length).toBe(3);
    expect((await t.call(store, 'GET', `/products/${mug.body.data.id}`)).body.data.totalStock).toBe(5);
  });

  it("links an order to the store's customer of its Email (case-insensitively); an order of an unknown email imports without one", async () => {
    const store = await t.newStore();
    expect((await importCsv(t, store, 'customers', csvFixture('shopify-customers.csv'))).job).toMatchObject({ created: 4, failed: 0 });
    const orders = csvFixture('shopify-orders.csv')
      .replaceAll('bo@example.com', 'Bo@Example.COM')
      .replace('\n#1003,,refunded', '\n#1003,zed@example.com,refunded');
    const { job, errors } = await importCsv(t, store, 'orders', orders);
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ status: 'succeeded', total: 3, created: 3, failed: 0 });
    expect(await orderByNumber(store, '#1001')).toMatchObject({ userId: (await customerByUserName(store, 'ada@example.com'))?.id });
    expect(await orderByNumber(store, '#1002')).toMatchObject({
      userId: (await customerByUserName(store, 'bo@example.com'))?.id,
      contactEmail: 'Bo@Example.COM',
    });
    expect(await orderByNumber(store, '#1003')).toMatchObject({ userId: null, contactEmail: 'zed@example.com' });
    const ada = await customerByUserName(store, 'ada@example.com');
    expect((await t.call(store, 'GET', `/orders?userId=${ada?.id}`)).body.data).toEqual([
      expect.objectContaining({ customOrderId: '#1001' }),
    ]);
  });

  it("a large order's per-item cells that every row shares take one key each, within customFields' 200", async () => {
    const store = await t.newStore();
    const header = ['Name', 'Lineitem quantity', 'Lineitem name', 'Lineitem price', 'Lineitem requires shipping', 'Lineitem taxable'];
    const extra = ['Lineitem fulfillment status', 'Lineitem discount', 'Vendor'];
    const rows = Array.from({ length: 60 }, (_, i) => csvRow(['#big', '1', `Item ${i}`, '2', 'true', 'true', 'fulfilled', '0.00', 'Acme']));
    const { job, errors } = await importCsv(t, store, 'orders', [csvRow([...header, ...extra]), ...rows].join('\n'));
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ created: 1, failed: 0 });
    const order = await orderByNumber(store, '#big');
    expect((order.cartItems as unknown[]).length).toBe(60);
    expect(order.customFields).toEqual({
      'Lineitem requires shipping #*': 'true',
      'Lineitem taxable #*': 'true',
      'Lineitem fulfillment status #*': 'fulfilled',
      'Lineitem discount #*': '0.00',
      'Vendor #*': 'Acme',
    });
  });

  it("drops the apostrophe Shopify's export puts before zips, phones and ids, as the customer import does", async () => {
    const store = await t.newStore();
    // the fixture's cells as Shopify's order export writes them for spreadsheets: '10001, '+16135550101, '5550000002
    const orders = csvFixture('shopify-orders.csv')
      .replaceAll(',Sampleton,10001,NY,US,', ",Sampleton,'10001,NY,US,")
      .replaceAll(',CA,+16135550101,', ",CA,'+16135550101,")
      .replace(',5550000002,', ",'5550000002,");
    expect(orders.match(/,'(10001|\+16135550101|5550000002),/g)).toHaveLength(5);
    const { job, errors } = await importCsv(t, store, 'orders', orders);
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ created: 3, failed: 0 });
    const ada = await orderByNumber(store, '#1001');
    expect(ada.billingAddress).toMatchObject({ zip: 'K1A 0B1', phone: '+16135550101' });
    expect(ada.shippingAddress).toMatchObject({ phone: '+16135550101' });
    const bo = await orderByNumber(store, '#1002');
    expect(bo.billingAddress).toMatchObject({ zip: '10001' });
    expect(bo.shippingAddress).toMatchObject({ zip: '10001' });
    expect(bo.customFields).toMatchObject({ Id: '5550000002' });
  });

  it('a second file updates what PATCH takes (statuses, customFields) and creates nothing', async () => {
    const store = await t.newStore();
    const header = ['Name', 'Financial Status', 'Fulfillment Status', 'Lineitem quantity', 'Lineitem name', 'Lineitem price', 'Tags'];
    const file = (status: string, tags: string) =>
      [csvRow(header), csvRow(['#7', status, 'unfulfilled', '1', 'Tee', '10', tags])].join('\n');
    expect((await importCsv(t, store, 'orders', file('pending', 'a'))).job).toMatchObject({ created: 1 });
    const { job } = await importCsv(t, store, 'orders', file('paid', 'b'));
    expect(job).toMatchObject({ created: 0, updated: 1, failed: 0 });
    expect(await orderByNumber(store, '#7')).toMatchObject({
      paymentStatus: 'paid',
      customFields: { Tags: 'b' },
      subTotal: 10,
      totalAmount: 10,
    });
  });
});
