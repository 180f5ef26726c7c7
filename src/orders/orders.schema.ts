import { type Static, Type } from '@sinclair/typebox';
import {
  Body,
  Email,
  Envelope,
  ID_PATTERN,
  ListEnvelope,
  ListQuery,
  Money,
  Name,
  Nullable,
  PastTimestamp,
  StringEnum,
  Text,
  Timestamp,
} from '../shared/index.js';

export const MAX_CART_ITEMS = 1000;
export const MAX_TRACKING_ENTRIES = 100;

const Optional = Type.Optional;
const OptionalText = (maxLength = 255) => Optional(Nullable(Text(maxLength)));

/** SPEC's Address (order shipping/billing): every field optional on input, always present (null) on output. */
export const OrderAddress = Body(
  {
    firstName: OptionalText(),
    lastName: OptionalText(),
    address1: OptionalText(1000),
    address2: OptionalText(1000),
    city: OptionalText(),
    state: OptionalText(),
    zip: OptionalText(64),
    country: OptionalText(),
    phone: OptionalText(64),
  },
  { title: 'OrderAddress' },
);
export type OrderAddress = Static<typeof OrderAddress>;

/** A cart line is a snapshot: the product need not exist (historical orders). */
export const CartItem = Body(
  {
    productId: Name(255),
    title: Name(1000),
    price: Money,
    quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    sku: OptionalText(),
  },
  { title: 'CartItem' },
);
export type CartItem = Static<typeof CartItem>;

export const TrackingInfo = Body(
  {
    trackingNumber: Name(255),
    shippingCarrier: OptionalText(),
    trackingUrl: OptionalText(2048),
  },
  { title: 'TrackingInfo' },
);
export type TrackingInfo = Static<typeof TrackingInfo>;

/** PATCH merges these field by field into the stored refund (null clears one field). */
export const Refund = Body({ status: OptionalText(), adminRemark: OptionalText(10_000) }, { title: 'Refund' });
export type Refund = Static<typeof Refund>;

const Status = Name(100);
export const INVENTORY_BEHAVIOURS = ['bypass', 'decrement'] as const;
const InventoryBehaviour = StringEnum(INVENTORY_BEHAVIOURS, {
  description:
    '"bypass" (default): a record, stock untouched. "decrement": every item names a variant by productId and sku, and the order takes their stock, all or nothing (409 INSUFFICIENT_STOCK)',
});
const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, three uppercase letters' });
const TrackingList = Type.Array(TrackingInfo, { maxItems: MAX_TRACKING_ENTRIES });

export const Order = Type.Object(
  {
    id: Type.String(),
    customOrderId: Type.String(),
    userId: Nullable(Type.String()),
    cartItems: Type.Array(CartItem),
    shippingAddress: Nullable(OrderAddress),
    billingAddress: Nullable(OrderAddress),
    contactEmail: Nullable(Type.String()),
    orderStatus: Type.String(),
    paymentMethod: Nullable(Type.String()),
    paymentStatus: Type.String(),
    subTotal: Type.Number(),
    shippingCharge: Nullable(Type.Number()),
    taxAmount: Nullable(Type.Number()),
    totalAmount: Type.Number(),
    currency: Type.String(),
    trackingInfo: Type.Array(TrackingInfo),
    refund: Nullable(Refund),
    inventoryBehaviour: InventoryBehaviour,
    restockedAt: Nullable(Timestamp),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Order' },
);
export type Order = Static<typeof Order>;

export const CreateOrderBody = Body({
  cartItems: Type.Array(CartItem, { minItems: 1, maxItems: MAX_CART_ITEMS }),
  subTotal: Money,
  totalAmount: Money,
  customOrderId: Optional(Nullable(Name(255))),
  shippingAddress: Optional(Nullable(OrderAddress)),
  billingAddress: Optional(Nullable(OrderAddress)),
  contactEmail: Optional(Nullable(Email)),
  orderStatus: Optional(Status),
  paymentMethod: OptionalText(),
  paymentStatus: Optional(Status),
  shippingCharge: Optional(Nullable(Money)),
  taxAmount: Optional(Nullable(Money)),
  currency: Optional(Currency),
  // Beyond SPEC for migration: createdAt and userId (CONTRACT §7); trackingInfo and refund too, so an
  // imported order arrives whole in one request (docs/customers-orders.md).
  createdAt: Optional(PastTimestamp),
  userId: Optional(Nullable(Type.String({ maxLength: 64 }))),
  trackingInfo: Optional(TrackingList),
  refund: Optional(Nullable(Refund)),
  inventoryBehaviour: Optional(InventoryBehaviour),
});
export type CreateOrderInput = Static<typeof CreateOrderBody>;

export const UpdateOrderBody = Body({
  orderStatus: Optional(Status),
  paymentStatus: Optional(Status),
  trackingInfo: Optional(TrackingList),
  refund: Optional(Nullable(Refund)),
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
