import type { CliCommand, CliOption } from './command-table.js';

/**
 * The price list commands of the command table (CONTRACT §14; docs/price-lists.md): clients of a running
 * server, as `import` and `export` are. A file of their own to keep the table readable; main.ts sees them
 * only through COMMANDS.
 */

const handlers = () => import('./price-lists.js');
const HTTP_ENV = [
  'STOREFRONT_URL (the server, e.g. http://127.0.0.1:3000)',
  'STOREFRONT_API_KEY (an API key with products:read, or products:write to change)',
];
const LIST_ID: CliOption = { type: 'string', value: 'ID', description: 'the price list (from price-lists list)', required: true };
const ITEMS_NOTE =
  'FILE (- for stdin) is a JSON array of items, {"items": [...]} or NDJSON, one item a line; sent 1,000 items a request, each applied whole; a refused one stops the command, its error naming items[i] by place in the file (from 0)';

/** The fields of a list, as create and update take them. */
const fields = (change: boolean): Record<string, CliOption> => ({
  name: { type: 'string', value: 'NAME', description: 'unique in the store, case-insensitively', required: !change },
  currency: { type: 'string', value: 'CODE', description: 'an ISO 4217 code, as EUR', required: !change },
  status: { type: 'string', value: 'S', description: `active${change ? '' : ' (default)'} or draft` },
  'starts-at': { type: 'string', value: 'TIME', description: `from when it applies (ISO 8601)${change ? '; none: no start' : ''}` },
  'ends-at': { type: 'string', value: 'TIME', description: `until when it applies, after starts-at${change ? '; none: no end' : ''}` },
  'customer-tags': {
    type: 'string',
    value: 'LIST',
    description: `comma-separated: only customers having one of these tags (${change ? "'': every buyer" : 'default: every buyer'})`,
  },
  adjustment: {
    type: 'string',
    value: 'A',
    description: `percentageDecrease:N or percentageIncrease:N (0-100): items without a fixed price, from the base price (store currency only)${change ? '; none: no adjustment' : ''}`,
  },
});

const overHttp = { env: HTTP_ENV, overHttp: true } as const;

export const PRICE_LIST_COMMANDS: CliCommand[] = [
  {
    name: 'price-lists list',
    summary: "list a server's price lists (JSON array, oldest first)",
    options: {
      currency: { type: 'string', value: 'CODE', description: 'only lists in this currency' },
      status: { type: 'string', value: 'S', description: 'only active or only draft lists' },
    },
    ...overHttp,
    run: async (values) => (await handlers()).listPriceLists(values),
  },
  {
    name: 'price-lists get',
    summary: 'print a price list',
    options: { id: LIST_ID },
    ...overHttp,
    run: async (values) => (await handlers()).getPriceList(values),
  },
  {
    name: 'price-lists create',
    summary: 'create a price list (at most 1,000 per store)',
    options: fields(false),
    ...overHttp,
    run: async (values) => (await handlers()).createPriceList(values),
  },
  {
    name: 'price-lists update',
    summary: "change a price list's fields",
    options: { id: LIST_ID, ...fields(true) },
    notes: 'Fields left out stay as they are',
    ...overHttp,
    run: async (values) => (await handlers()).updatePriceList(values),
  },
  {
    name: 'price-lists delete',
    summary: 'delete a price list and its fixed prices',
    options: { id: LIST_ID },
    ...overHttp,
    run: async (values) => (await handlers()).deletePriceList(values),
  },
  {
    name: 'price-lists prices',
    summary: "list a price list's fixed prices (JSON array, oldest first)",
    options: { id: LIST_ID, 'product-id': { type: 'string', value: 'ID', description: "only this product's prices" } },
    notes: 'What it prints, set-prices takes back (into another list, say)',
    ...overHttp,
    run: async (values) => (await handlers()).listFixedPrices(values),
  },
  {
    name: 'price-lists set-prices',
    summary: 'set fixed prices: items {productId, variantId?, price, comparePrice?}',
    options: { id: LIST_ID },
    positionals: 'FILE',
    notes: `${ITEMS_NOTE}. Prints {priceListId, set}`,
    ...overHttp,
    run: async (values, positionals) => (await handlers()).setFixedPrices(values, positionals),
  },
  {
    name: 'price-lists delete-prices',
    summary: 'remove fixed prices: items {productId, variantId?}',
    options: { id: LIST_ID },
    positionals: 'FILE',
    notes: `${ITEMS_NOTE}. Prints {priceListId, deleted}`,
    ...overHttp,
    run: async (values, positionals) => (await handlers()).deleteFixedPrices(values, positionals),
  },
  {
    name: 'prices',
    summary: 'resolve prices: every variant and simple product of some products, for a currency, a customer and a time',
    options: {
      'product-ids': { type: 'string', value: 'IDS', description: 'comma-separated product ids (250 a request)', required: true },
      currency: { type: 'string', value: 'CODE', description: "the currency (default: the store's)" },
      'customer-id': { type: 'string', value: 'ID', description: 'the buyer: lists with customer tags apply when they have one' },
      at: { type: 'string', value: 'TIME', description: 'the instant to price at (ISO 8601; default: now)' },
    },
    notes: 'Prints a JSON array of {productId, variantId, currency, price, comparePrice, priceListId, basis}',
    ...overHttp,
    run: async (values) => (await handlers()).resolvePrices(values),
  },
];
