import { type Static, Type } from '@sinclair/typebox';
import { ListQuery } from '../reads/index.js';
import { Described, Envelope, ListEnvelope, Money, Nullable, PathId, UpdatedAt } from '../shared/index.js';

/** Items per PUT or delete of fixed prices (CONTRACT §14). */
export const MAX_PRICE_ITEMS = 1000;

const ProductId = PathId('the product');
const VariantId = Described(PathId('the variant'), 'the variant (24 hexadecimal characters); leave out for a simple product');
const Amount = (what: string) =>
  Described(Money, `${what} in the list's currency, 0 or more, with at most its minor unit's decimals (JPY 0, USD 2, KWD 3)`);

export const PriceListPrice = Type.Object(
  {
    productId: Type.String({ description: 'the product' }),
    variantId: Nullable(Type.String({ description: 'the variant; null: the price of a simple product (one without options)' })),
    price: Type.Number({ description: "the fixed price, in the list's currency" }),
    comparePrice: Nullable(Type.Number({ description: 'the compare-at price (at least price); null: none' })),
    updatedAt: UpdatedAt,
  },
  { title: 'PriceListPrice', description: "an item's fixed price in a price list" },
);
export type PriceListPrice = Static<typeof PriceListPrice>;

/** An item of a delete's answer: it has no fixed price in the list any more. */
export const RemovedPrice = Type.Object(
  {
    productId: Type.String({ description: 'the product' }),
    variantId: Nullable(Type.String({ description: 'the variant; null: a simple product' })),
    price: Type.Null({ description: 'null: the item has no fixed price in the list now' }),
    comparePrice: Type.Null({ description: 'null: no compare price either' }),
    updatedAt: Type.Null({ description: 'null: there is no price row to have changed' }),
  },
  { title: 'RemovedPriceListPrice', description: 'an item whose fixed price the list no longer has' },
);
export type RemovedPrice = Static<typeof RemovedPrice>;

const Items = <T extends ReturnType<typeof Type.Object>>(item: T, what: string) =>
  Type.Array(item, { minItems: 1, maxItems: MAX_PRICE_ITEMS, description: `1 to ${MAX_PRICE_ITEMS} items; ${what}` });

export const PutPricesBody = Type.Object(
  {
    items: Items(
      Type.Object(
        {
          productId: ProductId,
          variantId: Type.Optional(VariantId),
          price: Amount('the fixed price'),
          comparePrice: Type.Optional(Nullable(Amount('the compare-at price, at least price; left out or null: none'))),
        },
        { additionalProperties: false },
      ),
      'each sets the item’s fixed price (replacing the one it had); all apply or none does',
    ),
  },
  { additionalProperties: false, title: 'PutPriceListPrices' },
);
export type PutPricesInput = Static<typeof PutPricesBody>;

export const DeletePricesBody = Type.Object(
  {
    items: Items(
      Type.Object({ productId: ProductId, variantId: Type.Optional(VariantId) }, { additionalProperties: false }),
      'each item loses its fixed price in the list (one without is left as it is)',
    ),
  },
  { additionalProperties: false, title: 'DeletePriceListPrices' },
);
export type DeletePricesInput = Static<typeof DeletePricesBody>;

export const PRICE_SORTS = ['createdAt'] as const;
export const PriceListPricesQuery = ListQuery(PRICE_SORTS, {
  productId: Type.Optional(Described(ProductId, "only this product's prices")),
});
export type PriceListPricesQuery = Static<typeof PriceListPricesQuery>;

export const PriceListPricesEnvelope = ListEnvelope(PriceListPrice);
export const PutPricesEnvelope = Envelope(Type.Array(PriceListPrice, { description: 'the items as they now are, in the order given' }));
export const DeletePricesEnvelope = Envelope(Type.Array(RemovedPrice, { description: 'the items, in the order given' }));
