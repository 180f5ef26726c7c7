/** The types of the feed (one per kind of record and change); variant changes are `product.updated`. */
export const RECORD_KINDS = ['product', 'collection', 'attribute', 'attributeSet', 'customer', 'address', 'order'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];
const CHANGES = ['created', 'updated', 'deleted'] as const;
export type EventType = `${RecordKind}.${(typeof CHANGES)[number]}`;

export const EVENT_TYPES: readonly EventType[] = RECORD_KINDS.flatMap((kind) => CHANGES.map((change) => `${kind}.${change}` as const));

export const isEventType = (value: string): value is EventType => (EVENT_TYPES as readonly string[]).includes(value);

/** One event to append: its type and its record as GET returns it (for a delete, as it was). */
export interface NewEvent {
  type: EventType;
  data: object;
}

/** A position in the feed: the writing transaction and the order within it (both 64-bit, as decimal text). */
export interface Position {
  xid: string;
  seq: string;
}

export const START: Position = { xid: '0', seq: '0' };

/** Whether `a` comes after `b` in the feed. */
export const isAfter = (a: Position, b: Position): boolean =>
  BigInt(a.xid) > BigInt(b.xid) || (a.xid === b.xid && BigInt(a.seq) > BigInt(b.seq));
