import { type Static, Type } from '@sinclair/typebox';
import { ListQuery } from '../reads/index.js';
import {
  Body,
  CreatedAt,
  CustomFieldsInput,
  CustomFieldsSchema,
  Described,
  Email,
  Envelope,
  ID_PATTERN,
  ListEnvelope,
  Money,
  Name,
  Nullable,
  PastTimestamp,
  RecordId,
  StringEnum,
  Timestamp,
  UpdatedAt,
} from '../shared/index.js';

export const MAX_CART_ITEMS = 1000;
export const MAX_TRACKING_ENTRIES = 100;

const Optional = Type.Optional;
/** 1000 as "1,000": by hand, as toLocaleString would load ICU's number data into every server (~4.5 MB RSS). */
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const OptionalText = (maxLength = 255, description?: string) =>
  Optional(
    Nullable(
      Type.String({
        maxLength,
        description: `${description ?? 'free text'} (at most ${grouped(maxLength)} characters); null: none`,
      }),
    ),
  );
/** An amount of money in major units of the order's currency (24.9 is 24.90), 0 to 10^12. */
const Amount = (what: string) => Described(Money, `${what}, in major units of the order's currency (24.9 is 24.90), 0 to 10^12`);

/** SPEC's Address (order shipping/billing): every field optional on input, always present (null) on output. */
export const OrderAddress = Body(
  {
    firstName: OptionalText(255, 'first name of the recipient'),
    lastName: OptionalText(255, 'last name of the recipient'),
    address1: OptionalText(1000, 'street and number'),
    address2: OptionalText(1000, 'apartment, suite, floor'),
    city: OptionalText(255, 'city'),
    state: OptionalText(255, 'state, province or region'),
    zip: OptionalText(64, 'postal code'),
    country: OptionalText(255, 'country, as a name or a code'),
    phone: OptionalText(64, 'phone number'),
  },
  { title: 'OrderAddress', description: 'a shipping or billing address of an order: every field optional, null when absent' },
);
export type OrderAddress = Static<typeof OrderAddress>;

/** A cart line is a snapshot: the product need not exist (historical orders). */
export const CartItem = Body(
  {
    productId: Described(Name(255), 'the identifier of the product bought (need not exist: an order is a snapshot), 1 to 255 characters'),
    title: Described(Name(1000), 'the line as the buyer saw it, 1 to 1,000 characters'),
    price: Amount('the unit price'),
    quantity: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'units bought, 1 to 1,000,000' }),
    sku: OptionalText(255, 'the SKU of the variant bought; with inventoryBehaviour "decrement" it names the variant'),
    locationId: Optional(
      Nullable(
        Type.String({
          pattern: ID_PATTERN,
          description:
            'with inventoryBehaviour "decrement": the active location of this store the stock is taken from (and a restock puts it back to); null or absent: the default location',
        }),
      ),
    ),
  },
  { title: 'CartItem', description: 'one line of the cart, as it was when ordered' },
);
export type CartItem = Static<typeof CartItem>;

export const TrackingInfo = Body(
  {
    trackingNumber: Described(Name(255), "the carrier's tracking number, 1 to 255 characters"),
    shippingCarrier: OptionalText(255, 'the carrier, as "UPS"'),
    trackingUrl: OptionalText(2048, 'where the parcel can be followed'),
  },
  { title: 'TrackingInfo', description: 'one shipment of the order' },
);
export type TrackingInfo = Static<typeof TrackingInfo>;

/** PATCH merges these field by field into the stored refund (null clears one field). */
export const Refund = Body(
  { status: OptionalText(255, 'refund state, free text, as "Approved"'), adminRemark: OptionalText(10_000, "the merchant's note") },
  { title: 'Refund', description: 'the refund of the order, if any' },
);
export type Refund = Static<typeof Refund>;

const Status = Name(100);
export const INVENTORY_BEHAVIOURS = ['bypass', 'decrement'] as const;
const InventoryBehaviour = StringEnum(INVENTORY_BEHAVIOURS, {
  description:
    '"bypass" (default): a record, stock untouched. "decrement": every item names a variant (or a product without options) by productId and sku, and the order takes their stock (a simple product: its totalStock), all or nothing (409 INSUFFICIENT_STOCK)',
});
const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, three uppercase letters' });
const TrackingList = Type.Array(TrackingInfo, {
  maxItems: MAX_TRACKING_ENTRIES,
  description: `the shipments, at most ${MAX_TRACKING_ENTRIES}; a write replaces the whole list`,
});

export const Order = Type.Object(
  {
    id: RecordId,
    customOrderId: Type.String({ description: 'the order number, unique in the store: as given, or generated with an `ORD-` prefix' }),
    userId: Nullable(Type.String({ description: 'the identifier of the customer who ordered; null: a guest' })),
    cartItems: Type.Array(CartItem, { description: 'the lines of the cart (at least one)' }),
    shippingAddress: Nullable(OrderAddress),
    billingAddress: Nullable(OrderAddress),
    contactEmail: Nullable(Type.String({ description: 'where the buyer is reached; null: none' })),
    orderStatus: Type.String({ description: 'free text, as "pending" (the default) or "fulfilled"; "cancelled" may restock' }),
    paymentMethod: Nullable(Type.String({ description: 'free text, as "card"; null: none' })),
    paymentStatus: Type.String({ description: 'free text, as "paid" (default "pending")' }),
    subTotal: Type.Number({ description: "the sum of the lines, in major units of the order's currency" }),
    shippingCharge: Nullable(Type.Number({ description: 'shipping, in major units; null: none given' })),
    taxAmount: Nullable(Type.Number({ description: 'tax, in major units; null: none given' })),
    totalAmount: Type.Number({ description: 'what the buyer pays, in major units' }),
    currency: Type.String({ description: 'ISO 4217 code (default USD)' }),
    trackingInfo: Type.Array(TrackingInfo, { description: 'the shipments; [] when none' }),
    refund: Nullable(Refund),
    inventoryBehaviour: InventoryBehaviour,
    restockedAt: Nullable(Described(Timestamp, 'when a cancellation put the quantities back in stock; null: never; read-only')),
    customFields: CustomFieldsSchema,
    createdAt: CreatedAt,
    updatedAt: UpdatedAt,
  },
  { title: 'Order', description: 'an order: a snapshot of a cart, its addresses, amounts and states' },
);
export type Order = Static<typeof Order>;

export const CreateOrderBody = Body({
  cartItems: Type.Array(CartItem, { minItems: 1, maxItems: MAX_CART_ITEMS, description: `the lines, 1 to ${MAX_CART_ITEMS}` }),
  subTotal: Amount('the sum of the lines'),
  totalAmount: Amount('what the buyer pays'),
  customOrderId: Optional(
    Nullable(Described(Name(255), 'the order number, unique in the store, 1 to 255 characters; generated (ORD-…) when omitted')),
  ),
  shippingAddress: Optional(Nullable(OrderAddress)),
  billingAddress: Optional(Nullable(OrderAddress)),
  contactEmail: Optional(Nullable(Email)),
  orderStatus: Optional(Described(Status, 'free text, 1 to 100 characters, as "pending" (the default) or "fulfilled"')),
  paymentMethod: OptionalText(255, 'how it is paid, as "card"'),
  paymentStatus: Optional(Described(Status, 'free text, 1 to 100 characters, as "paid" (default "pending")')),
  shippingCharge: Optional(Nullable(Amount('shipping'))),
  taxAmount: Optional(Nullable(Amount('tax'))),
  currency: Optional(Currency),
  // Beyond SPEC for migration: createdAt and userId (CONTRACT §7); trackingInfo and refund too, so an
  // imported order arrives whole in one request (docs/customers-orders.md).
  createdAt: Optional(PastTimestamp),
  userId: Optional(
    Nullable(Type.String({ maxLength: 64, description: 'the identifier of the customer who ordered; null or omitted: a guest' })),
  ),
  trackingInfo: Optional(TrackingList),
  refund: Optional(Nullable(Refund)),
  inventoryBehaviour: Optional(InventoryBehaviour),
  customFields: CustomFieldsInput,
});
export type CreateOrderInput = Static<typeof CreateOrderBody>;

export const UpdateOrderBody = Body({
  orderStatus: Optional(Described(Status, 'free text, 1 to 100 characters, as "fulfilled" or "cancelled"')),
  paymentStatus: Optional(Described(Status, 'free text, 1 to 100 characters, as "paid"')),
  trackingInfo: Optional(TrackingList),
  refund: Optional(Nullable(Refund)),
  customFields: CustomFieldsInput,
  restock: Optional(
    Type.Boolean({
      description:
        'with orderStatus "cancelled": a decrement order puts its quantities back, once (restockedAt says when); a bypass order changes no stock',
    }),
  ),
});
export type UpdateOrderInput = Static<typeof UpdateOrderBody>;

export const ORDER_SORTS = ['createdAt', 'totalAmount'] as const;
export const OrderListQuery = ListQuery(ORDER_SORTS, {
  status: Optional(Type.String({ maxLength: 255, description: 'exact orderStatus' })),
  paymentStatus: Optional(Type.String({ maxLength: 255, description: 'exact paymentStatus' })),
  userId: Optional(Type.String({ pattern: ID_PATTERN, description: "the customer's orders" })),
});
export type OrderListQuery = Static<typeof OrderListQuery>;

export const OrderEnvelope = Envelope(Order);
export const OrderListEnvelope = ListEnvelope(Order);
