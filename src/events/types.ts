/** A position in the feed: the writing transaction and the order within it (both 64-bit, as decimal text). */
export interface Position {
  xid: string;
  seq: string;
}

export const START: Position = { xid: '0', seq: '0' };

/** Whether `a` comes after `b` in the feed. */
export const isAfter = (a: Position, b: Position): boolean =>
  BigInt(a.xid) > BigInt(b.xid) || (a.xid === b.xid && BigInt(a.seq) > BigInt(b.seq));
