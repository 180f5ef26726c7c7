import type { Tx } from '../db/index.js';
import type { EventType, RecordKind } from '../shared/index.js';

/** A derived change: another record whose representation the write changed, read as GET returns it at the end. */
export interface Noted {
  type: EventType;
  /** how to read it; absent when noted by kind (noteUpdated): the after-work reads it with the kind's loader */
  load?: () => Promise<object>;
  /** set when noted by kind: records of a kind with a many-loader are read in one query */
  record?: { kind: RecordKind; storeId: string; id: string };
}

/** Noted changes by record (`product:<id>`), in the order they were noted. */
export type NotedChanges = Map<string, Noted>;

/**
 * The noted changes live on the transaction's handle itself, under a key no other code can name: they belong
 * to that transaction and end with it, a retried transaction is a new handle and starts with nothing noted,
 * and nothing is kept per process. The after-work takes them when it appends (src/events/after-work.ts) and
 * restores them on a rollback to a savepoint (src/db/savepoint.ts).
 */
const NOTED = Symbol('noted changes');
type Noting = { [NOTED]?: NotedChanges };

export function notedChanges(trx: Tx): NotedChanges {
  const holder = trx as unknown as Noting;
  holder[NOTED] ??= new Map();
  return holder[NOTED];
}

/** The noted changes, taken: the transaction's handle holds none afterwards. */
export function takeNotedChanges(trx: Tx): NotedChanges {
  const noted = notedChanges(trx);
  (trx as unknown as Noting)[NOTED] = new Map();
  return noted;
}

/** Puts back what was noted when a savepoint was set (`taken` is a copy of that moment). */
export function restoreNotedChanges(trx: Tx, taken: NotedChanges): void {
  (trx as unknown as Noting)[NOTED] = new Map(taken);
}

export const keyOf = (type: EventType, id: string) => `${type.slice(0, type.indexOf('.'))}:${id}`;

/**
 * Notes that the write changes another record's representation (a product's collections when a
 * collection's manual members change, a parent's children, attributes upserted by product options): its
 * event is appended with the write's own, with the record as it is when the write's work is done. One event
 * per record and write; the first type noted wins (a record created and then updated is `created`).
 */
export function noteChange(trx: Tx, type: EventType, id: string, load: () => Promise<object>): void {
  note(trx, keyOf(type, id), { type, load });
}

/**
 * `noteChange` of `*.updated` for each of `ids`, read by the loader of the record's kind (the kinds src/app.ts
 * passed to the after-work): a folder may note a change to a record of a folder it must not import.
 */
export function noteUpdated(trx: Tx, storeId: string, kind: RecordKind, ids: Iterable<string>): void {
  const type = `${kind}.updated` as const;
  for (const id of ids) note(trx, keyOf(type, id), { type, record: { kind, storeId, id } });
}

function note(trx: Tx, key: string, noted: Noted): void {
  const changes = notedChanges(trx);
  if (!changes.has(key)) changes.set(key, noted);
}
