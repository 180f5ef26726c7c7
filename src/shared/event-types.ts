/**
 * The feed's vocabulary (one type per kind of record and change; variant changes are `product.updated`):
 * here, beside the scopes that read them (event-scopes.ts), so that a write's contract (after-work.ts), the
 * HTTP plumbing and the import lines can name an event without importing the feed.
 */
export const RECORD_KINDS = ['product', 'collection', 'attribute', 'attributeSet', 'customer', 'address', 'order', 'priceList'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];
const CHANGES = ['created', 'updated', 'deleted'] as const;
/**
 * Events about what is not a record with an id of its own: an inventory level (an item's stock at a location,
 * CONTRACT §13), only ever updated (a missing level is 0 available).
 */
export const LEVEL_EVENT_TYPES = ['inventory.updated'] as const;
export type EventType = `${RecordKind}.${(typeof CHANGES)[number]}` | (typeof LEVEL_EVENT_TYPES)[number];

export const EVENT_TYPES: readonly EventType[] = [
  ...RECORD_KINDS.flatMap((kind) => CHANGES.map((change) => `${kind}.${change}` as const)),
  ...LEVEL_EVENT_TYPES,
];

export const isEventType = (value: string): value is EventType => (EVENT_TYPES as readonly string[]).includes(value);

/** One event to append: its type and its record as GET returns it (for a delete, as it was). */
export interface NewEvent {
  type: EventType;
  data: object;
}
