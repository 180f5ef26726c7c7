import { type Static, Type } from '@sinclair/typebox';
import { ListQuery } from '../reads/index.js';
import { Described, Envelope, ListEnvelope, Nullable, PathId, Text, UpdatedAt } from '../shared/index.js';

/** Items per set or adjust request (CONTRACT §13). */
export const MAX_LEVEL_ITEMS = 250;
const MAX_AVAILABLE = 2_147_483_647;

export const InventoryLevel = Type.Object(
  {
    id: Type.String({
      description:
        "the level's identifier: its item's id (the variant's, or the simple product's) followed by its location's; events about one level carry it as data.id, so webhooks deliver them in order",
    }),
    productId: Type.String({ description: 'the product' }),
    variantId: Nullable(Type.String({ description: 'the variant; null: the level of a simple product (one without options)' })),
    locationId: Type.String({ description: 'the location' }),
    available: Type.Integer({ description: 'units available there (below 0 only after an adjust with allowNegative)' }),
    updatedAt: UpdatedAt,
  },
  { title: 'InventoryLevel', description: 'the stock of one item (a variant, or a simple product) at one location' },
);
export type InventoryLevel = Static<typeof InventoryLevel>;

const ProductId = PathId('the product');
const VariantId = Described(PathId('the variant'), 'the variant (24 hexadecimal characters); leave out for a simple product');
const LocationId = PathId('the location');
const Reason = Type.Optional(Described(Text(255), 'why, as "cycle count" or "ERP sync" (at most 255 characters; not stored)'));
const Items = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Array(item, { minItems: 1, maxItems: MAX_LEVEL_ITEMS, description: `1 to ${MAX_LEVEL_ITEMS} levels; all apply or none does` });

export const SetLevelsBody = Type.Object(
  {
    items: Items(
      Type.Object(
        {
          productId: ProductId,
          variantId: Type.Optional(VariantId),
          locationId: LocationId,
          available: Type.Integer({ minimum: 0, maximum: MAX_AVAILABLE, description: 'the new value, 0 or more' }),
          compareAvailable: Type.Optional(
            Type.Integer({
              minimum: -MAX_AVAILABLE,
              maximum: MAX_AVAILABLE,
              description: 'the value you last read: if the level is no longer at it, nothing changes (409 INVENTORY_CHANGED)',
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    reason: Reason,
  },
  { additionalProperties: false, title: 'SetInventoryLevels' },
);
export type SetLevelsInput = Static<typeof SetLevelsBody>;

export const AdjustLevelsBody = Type.Object(
  {
    items: Items(
      Type.Object(
        {
          productId: ProductId,
          variantId: Type.Optional(VariantId),
          locationId: LocationId,
          delta: Type.Integer({
            minimum: -MAX_AVAILABLE,
            maximum: MAX_AVAILABLE,
            not: { const: 0 },
            description: 'units to add (negative: to take), not 0',
          }),
        },
        { additionalProperties: false },
      ),
    ),
    reason: Reason,
    allowNegative: Type.Optional(Described(Type.Boolean(), 'true: a level may go below 0 (else 409 INSUFFICIENT_STOCK)')),
  },
  { additionalProperties: false, title: 'AdjustInventoryLevels' },
);
export type AdjustLevelsInput = Static<typeof AdjustLevelsBody>;

export const LEVEL_SORTS = ['createdAt'] as const;
export const LevelListQuery = ListQuery(LEVEL_SORTS, {
  productId: Type.Optional(ProductId),
  variantId: Type.Optional(VariantId),
  locationId: Type.Optional(LocationId),
});
export type LevelListQuery = Static<typeof LevelListQuery>;

export const LevelListEnvelope = ListEnvelope(InventoryLevel);
export const LevelsEnvelope = Envelope(
  Type.Array(InventoryLevel, { description: 'the levels as they now are, in the order of the items' }),
);
