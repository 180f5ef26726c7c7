import { type Static, Type } from '@sinclair/typebox';
import { ListQuery } from '../reads/index.js';
import {
  Body,
  CreatedAt,
  Described,
  Envelope,
  ListEnvelope,
  Name,
  Nullable,
  RecordId,
  StringEnum,
  TagsInput,
  Timestamp,
  UpdatedAt,
} from '../shared/index.js';

/** At most this many price lists per store (CONTRACT §14): the 1,001st is a 400. */
export const MAX_PRICE_LISTS = 1000;

export const CurrencyCode = Type.String({
  pattern: '^[A-Z]{3}$',
  description: 'an ISO 4217 currency code in uppercase, as EUR, JPY or KWD',
});
const STATUSES = ['active', 'draft'] as const;
const ADJUSTMENT_TYPES = ['percentageDecrease', 'percentageIncrease'] as const;

export const Adjustment = Type.Object(
  {
    type: StringEnum(ADJUSTMENT_TYPES, { description: 'down (a discount) or up (a markup) from the base price' }),
    value: Type.Number({ minimum: 0, maximum: 100, description: 'the percentage, 0 to 100 (decimals allowed, as 12.5)' }),
  },
  {
    additionalProperties: false,
    title: 'PriceAdjustment',
    description:
      "the price of an item without a fixed price in the list: its base price moved by this percentage, rounded half-up to the currency's minor unit; only in the store's currency",
  },
);

export const PriceList = Type.Object(
  {
    id: RecordId,
    name: Type.String({ description: 'unique in the store, case-insensitively, as "Wholesale EUR"' }),
    currency: CurrencyCode,
    status: StringEnum(STATUSES, { description: 'active: it applies (within startsAt/endsAt); draft: it does not' }),
    startsAt: Nullable(Described(Timestamp, 'from when it applies; null: always did')),
    endsAt: Nullable(Described(Timestamp, 'until when it applies (not at that instant); null: no end')),
    customerTags: Type.Array(Type.String(), {
      description: 'the customers it applies to: those having one of these tags (case-insensitively); []: every buyer',
    }),
    adjustment: Nullable(Adjustment),
    createdAt: CreatedAt,
    updatedAt: UpdatedAt,
  },
  { title: 'PriceList', description: 'prices in a currency for some buyers and a time: fixed per item, else adjusted from the base price' },
);
export type PriceList = Static<typeof PriceList>;

const ListName = Described(Name(255), 'unique in the store, case-insensitively, 1 to 255 characters');
const CustomerTags = Described(TagsInput, 'customers having one of these tags (case-insensitively); [] (default): every buyer');
const Window = {
  startsAt: Type.Optional(Nullable(Described(Timestamp, 'from when it applies (ISO 8601); null: no start'))),
  endsAt: Type.Optional(Nullable(Described(Timestamp, 'until when it applies, after startsAt (ISO 8601); null: no end'))),
};

export const CreatePriceListBody = Body({
  name: ListName,
  currency: Described(CurrencyCode, 'an ISO 4217 code, as EUR'),
  status: Type.Optional(StringEnum(STATUSES, { description: 'active (default) or draft' })),
  ...Window,
  customerTags: Type.Optional(CustomerTags),
  adjustment: Type.Optional(Nullable(Adjustment)),
});
export const UpdatePriceListBody = Body({
  name: Type.Optional(ListName),
  currency: Type.Optional(Described(CurrencyCode, 'an ISO 4217 code; its fixed prices must have no more decimals than it has')),
  status: Type.Optional(StringEnum(STATUSES, { description: 'active: it applies (within startsAt/endsAt); draft: it does not' })),
  ...Window,
  customerTags: Type.Optional(CustomerTags),
  adjustment: Type.Optional(Nullable(Adjustment)),
});
export type CreatePriceListInput = Static<typeof CreatePriceListBody>;
export type UpdatePriceListInput = Static<typeof UpdatePriceListBody>;

export const PRICE_LIST_SORTS = ['createdAt', 'name'] as const;
export const PriceListListQuery = ListQuery(PRICE_LIST_SORTS, {
  currency: Type.Optional(Described(CurrencyCode, 'only lists in this currency')),
  status: Type.Optional(StringEnum(STATUSES, { description: 'only lists with this status' })),
});
export type PriceListListQuery = Static<typeof PriceListListQuery>;

export const PriceListEnvelope = Envelope(PriceList);
export const PriceListListEnvelope = ListEnvelope(PriceList);
