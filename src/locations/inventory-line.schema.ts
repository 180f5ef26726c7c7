import { type Static, Type } from '@sinclair/typebox';
import { Body, Described, Name, Nullable } from '../shared/index.js';

const MAX_AVAILABLE = 2_147_483_647;

/**
 * One line of an inventory import (`POST /imports?resource=inventory`) and of the inventory export: the stock
 * of one item at one location named as a person names them, so a file moves between stores whose ids differ.
 * The item is found by `sku`, else by `productHandle` and `options`; the location by name (created when the
 * store has none of that name). docs/imports-resources.md, "Inventory".
 */
export const InventoryLine = Body(
  {
    sku: Type.Optional(Described(Name(255), "the variant's or simple product's SKU: how the item is found first")),
    productHandle: Type.Optional(
      Described(Name(255), "the product's handle: with `options`, how the item is found when no SKU is given or none matches"),
    ),
    options: Type.Optional(
      Type.Record(Type.String({ minLength: 1, maxLength: 255 }), Type.String({ maxLength: 255 }), {
        maxProperties: 250,
        description:
          "option name -> value of the variant (names case-insensitive, values exact); {} or absent: a simple product's own stock",
      }),
    ),
    location: Described(Name(255), 'the location, by name (case-insensitive); created when the store has none of that name'),
    available: Nullable(
      Type.Integer({
        minimum: -MAX_AVAILABLE,
        maximum: MAX_AVAILABLE,
        description:
          'units available there (below 0: oversold); null: not stocked there (Shopify\'s "not stocked"): no level is made, one that holds stock is set to 0',
      }),
    ),
  },
  { title: 'InventoryLine', description: 'the stock of one item at one location, by SKU (or handle and options) and location name' },
);
export type InventoryLine = Static<typeof InventoryLine>;

/** A level as an inventory line: what the export writes and the import reads back into the same level. */
export function toInventoryLine(record: {
  handle: string;
  options: { name: string; value: string }[];
  sku: string | null;
  location: string;
  available: number;
}): InventoryLine {
  return {
    ...(record.sku ? { sku: record.sku } : {}),
    productHandle: record.handle,
    ...(record.options.length > 0 ? { options: Object.fromEntries(record.options.map(({ name, value }) => [name, value])) } : {}),
    location: record.location,
    available: record.available,
  };
}
