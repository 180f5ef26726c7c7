import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CsvHeader, type CsvLayout, type LayoutLine, openLayout } from '../index.js';
import { shopifyCustomers } from './customers.js';
import { shopifyOrders } from './orders.js';

/** The import lines a layout makes of a fixture (records numbered as the job numbers them: the header is 1). */
function linesOf(layout: CsvLayout, file: string): LayoutLine[] {
  const [names, ...records] = parse(readFileSync(`test/fixtures/csv/${file}`, 'utf8')) as string[][];
  const header = new CsvHeader(names);
  expect(layout.missingColumns(header)).toEqual([]);
  // as the job reads them: through openLayout, where Shopify's apostrophes are dropped
  const { reader, record } = openLayout(layout, names);
  return [...records.flatMap((cells, i) => reader.push(record(i + 2, cells))), ...reader.end()];
}

describe('Shopify customers (current header generation)', () => {
  const lines = linesOf(shopifyCustomers, 'shopify-customers.csv');
  it('makes one line per customer keyed by email, else phone; the address; other cells as customFields', () => {
    expect(lines.map((line) => line.value?.userName)).toEqual(['ada@example.com', 'bo@example.com', '+442071838750', 'di@example.com']);
    expect(lines[0].value).toEqual({
      userName: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Example',
      email: 'ada@example.com',
      phoneNumber: '+16135550100',
      businessName: 'Example Works, Ltd',
      tags: ['vip', 'wholesale'],
      address: {
        street: '1 Fictional Lane',
        house: 'Unit 2',
        city: 'Testville',
        stateName: 'ON',
        countryName: 'CA',
        pincode: '02928',
        phone: '+16135550101',
      },
      customFields: {
        'Customer ID': '7210448301122',
        'Accepts Email Marketing': 'yes',
        'Accepts SMS Marketing': 'no',
        'Total Spent': '247.50',
        'Total Orders': '3',
        Note: 'Prefers email.\nShips to the office.',
        'Tax Exempt': 'no',
        'Birthday (customer.metafields.facts.birth_date)': '1990-08-28',
      },
    });
    expect(lines[2].value).toMatchObject({ firstName: 'Cy', phoneNumber: '+442071838750' });
    expect(lines[2].value).not.toHaveProperty('address');
    expect(lines[3].value?.customFields).toMatchObject({ Note: 'She said "hello"' });
    expect(lines[0].sources.get('address.pincode')).toEqual({ line: 2, column: 'Default Address Zip' });
  });

  it("a Username column is the key (Storefront's own export)", () => {
    const header = new CsvHeader(['First Name', 'Last Name', 'Email', 'Username']);
    const [line] = shopifyCustomers.open(header).push({ line: 2, cells: ['Ed', '', 'ed@example.com', 'eddie'] });
    expect(line.value).toEqual({ userName: 'eddie', firstName: 'Ed', email: 'ed@example.com' });
    expect(line.sources.get('userName')).toEqual({ line: 2, column: 'Username' });
  });
});

describe('Shopify customers (older header generation)', () => {
  it("reads Company, Address1, City, Province Code, Country Code, Zip; names stay customFields; Tags are the customer's tags", () => {
    const [ed, flo] = linesOf(shopifyCustomers, 'shopify-customers-legacy.csv');
    expect(ed.value).toMatchObject({
      userName: 'ed@example.com',
      businessName: "Ed's Garage",
      phoneNumber: '+16135550111',
      address: { street: '10 Old Street', city: 'Oldtown', stateName: 'ON', countryName: 'CA', pincode: 'K1A 0B1' },
      customFields: { Province: 'Ontario', Country: 'Canada', 'Accepts Marketing': 'yes' },
      tags: ['legacy'],
    });
    expect(ed.value?.customFields).not.toHaveProperty('Tags');
    expect(flo.value).not.toHaveProperty('address');
  });
});

describe('Shopify orders', () => {
  const lines = linesOf(shopifyOrders, 'shopify-orders.csv');
  it('makes one line per Name from its consecutive rows, a cart item per row', () => {
    expect(lines.map((line) => [line.value?.customOrderId, line.line, line.lastLine])).toEqual([
      ['#1001', 2, 3],
      ['#1002', 4, 4],
      ['#1003', 5, 7],
    ]);
    const [first] = lines;
    expect(first.value).toMatchObject({
      customOrderId: '#1001',
      contactEmail: 'ada@example.com',
      paymentStatus: 'paid',
      orderStatus: 'fulfilled',
      currency: 'USD',
      subTotal: 47,
      shippingCharge: 6,
      taxAmount: 3.29,
      totalAmount: 56.29,
      createdAt: '2026-09-03T10:14:00-04:00',
      paymentMethod: 'Shopify Payments',
      cartItems: [
        { productId: 'FERN-8X10', title: 'Botanical Fern Print - 8x10', price: 16, quantity: 2, sku: 'FERN-8X10' },
        { productId: 'TOTE-1', title: 'Canvas Tote Bag', price: 20, quantity: 1, sku: 'TOTE-1' },
      ],
      billingAddress: {
        firstName: 'Ada',
        lastName: 'Example',
        address1: '1 Fictional Lane',
        address2: 'Unit 2',
        city: 'Testville',
        zip: 'K1A 0B1',
        state: 'ON',
        country: 'CA',
        phone: '+16135550101',
      },
    });
    expect(first.value?.customFields).toMatchObject({
      'Paid at': '2026-09-03 10:15:00 -0400',
      'Billing Company': 'Example Works, Ltd',
      'Billing Street': '1 Fictional Lane',
      Notes: 'Leave at the door,\nplease',
      'Lineitem taxable #1': 'true',
      'Lineitem taxable #2': 'false',
      // the same on every row: once
      'Lineitem requires shipping #*': 'true',
      'Lineitem fulfillment status #*': 'fulfilled',
      'Lineitem compare at price #2': '25.00',
      'Vendor #1': 'Fictional Prints',
      'Vendor #2': 'Tote Makers',
      'Tax 1 Name': 'HST 13%',
    });
    // the second row repeats Name and Email: nothing of them is kept twice
    expect(Object.keys(first.value?.customFields as object).filter((key) => /^(Name|Email)\b/.test(key))).toEqual([]);
    expect(first.sources.get('cartItems[1].price')).toEqual({ line: 3, column: 'Lineitem price' });
  });

  it('names a product by its SKU, else its name; an order without an email has no contactEmail', () => {
    const third = lines[2].value as { cartItems: { productId: string }[]; contactEmail?: string };
    expect(third.cartItems.map((item) => item.productId)).toEqual(['Sticker', 'SHEET-1', 'Sticker Pack']);
    expect(third).not.toHaveProperty('contactEmail');
    expect(third).toMatchObject({ paymentStatus: 'refunded', currency: 'EUR', createdAt: '2026-10-01T12:00:00+00:00' });
    expect(Object.keys(lines[2].value?.customFields as object).filter((key) => key.startsWith('Vendor'))).toEqual(['Vendor #*']);
  });

  it('adds up the subtotal and total when the file has neither', () => {
    const header = new CsvHeader(['Name', 'Lineitem quantity', 'Lineitem name', 'Lineitem price', 'Shipping']);
    const reader = shopifyOrders.open(header);
    reader.push({ line: 2, cells: ['#9', '2', 'A', '1.10', '0.5'] });
    reader.push({ line: 3, cells: ['#9', '3', 'B', '0.20', ''] });
    const [line] = reader.end();
    expect(line.value).toMatchObject({ subTotal: 2.8, shippingCharge: 0.5, totalAmount: 3.3 });
  });
});
