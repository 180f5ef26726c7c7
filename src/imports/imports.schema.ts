import { type Static, Type } from '@sinclair/typebox';
import { CSV_FORMATS } from '../platforms/index.js';
import { StringEnum } from '../shared/index.js';
import { IMPORT_RESOURCES } from './handlers.js';
import { MARKET_CURRENCIES_MAX_LENGTH } from './market-prices.js';

export const ImportQuery = Type.Object({
  resource: StringEnum(IMPORT_RESOURCES, { description: 'what every line of the file is' }),
  format: Type.Optional(
    StringEnum(CSV_FORMATS, { description: "a CSV file's platform layout; recognised from its header row when omitted" }),
  ),
  dryRun: Type.Optional(
    Type.Boolean({
      description: 'check every line exactly as a real run would; the job reports its counters and errors and writes nothing',
    }),
  ),
  marketCurrencies: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: MARKET_CURRENCIES_MAX_LENGTH,
      description:
        "products from Shopify's CSV: the currency (ISO 4217) of the price list each market's `Price / <Market>` column creates, " +
        "as `International:EUR,UK:GBP`; a market not named gets the store's currency (a list that exists keeps its own)",
      examples: ['International:EUR,UK:GBP'],
    }),
  ),
});
export type ImportQuery = Static<typeof ImportQuery>;

/** Documents the body only: it is streamed to a file by the route's own parser, never validated as JSON. */
export const NdjsonBody = {
  content: {
    'application/x-ndjson': {
      schema: Type.String({
        description:
          'NDJSON: one JSON object per line, each the body POST of the resource takes (blank lines skipped), ' +
          'up to STOREFRONT_IMPORT_MAX_BYTES (default 1 GiB)',
      }),
    },
    'text/csv': {
      schema: Type.String({
        description:
          "a platform's CSV export (Shopify or WooCommerce products, Shopify customers, orders and inventory): UTF-8, comma or semicolon, " +
          'RFC 4180 quoting; the layout is recognised from the header row or named with `format`',
      }),
    },
  },
};
