import { type Static, Type } from '@sinclair/typebox';
import { Described, Envelope, Nullable, PathId, StringEnum, Timestamp } from '../shared/index.js';
import { CurrencyCode } from './price-lists.schema.js';

/** At most this many products per GET /prices (CONTRACT §14). */
export const MAX_PRICED_PRODUCTS = 250;

export const ResolvedPrice = Type.Object(
  {
    productId: Type.String({ description: 'the product' }),
    variantId: Nullable(Type.String({ description: 'the variant; null: a simple product (one without options)' })),
    currency: CurrencyCode,
    price: Nullable(Type.Number({ description: 'the price the buyer pays, in currency; null: unavailable in it' })),
    comparePrice: Nullable(Type.Number({ description: 'the compare-at price that goes with it; null: none' })),
    priceListId: Nullable(Type.String({ description: 'the price list it comes from; null: the base price, or none' })),
    basis: StringEnum(['fixed', 'adjustment', 'base', 'unavailable'] as const, {
      description:
        "fixed: a list's fixed price; adjustment: the base price adjusted by a list; base: the product's own price (store currency); unavailable: no price in this currency",
    }),
  },
  {
    title: 'ResolvedPrice',
    description:
      'the price of one item for one buyer, in one currency, at one time (docs/price-lists.md); on a product or variant only when GET /products/{id} is given currency or customerId',
  },
);
export type ResolvedPrice = Static<typeof ResolvedPrice>;

const Currency = Described(CurrencyCode, "the currency to price in (default: the store's)");
const CustomerId = Described(PathId('the customer'), 'the buyer: lists with customerTags apply when they have one of them');

/** What GET /products/{id} takes to add each item's resolvedPrice. */
export const PriceContextQuery = Type.Object(
  { currency: Type.Optional(Currency), customerId: Type.Optional(CustomerId) },
  { additionalProperties: false },
);
export type PriceContextQuery = Static<typeof PriceContextQuery>;

export const PricesQuery = Type.Object(
  {
    productIds: Type.String({
      minLength: 1,
      maxLength: MAX_PRICED_PRODUCTS * 25,
      description: `product ids, comma-separated, 1 to ${MAX_PRICED_PRODUCTS}`,
    }),
    currency: Type.Optional(Currency),
    customerId: Type.Optional(CustomerId),
    at: Type.Optional(Described(Timestamp, 'the instant to price at (default: now)')),
  },
  { additionalProperties: false },
);
export type PricesQuery = Static<typeof PricesQuery>;

export const PricesEnvelope = Envelope(
  Type.Array(ResolvedPrice, {
    description: "every variant and simple product of the products, in the order of productIds and the variants' order",
  }),
);
