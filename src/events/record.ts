import type { Tx } from '../db/index.js';
import { AppError } from '../errors.js';
import { insertEvents, insertEventsWithCommit } from './events.sql.js';
import type { EventType, NewEvent, RecordKind } from './types.js';

/** A derived change: another record whose representation the write changed, read as GET returns it at the end. */
interface Noted {
  type: EventType;
  load: () => Promise<object>;
  /** set when noted by kind (noteUpdated): records of a kind with a many-loader are read in one query */
  record?: { kind: RecordKind; storeId: string; id: string };
}

// Keyed by the write's transaction: a retried transaction is a new handle and starts with nothing noted.
const notedBy = new WeakMap<Tx, Map<string, Noted>>();

const keyOf = (type: EventType, id: string) => `${type.slice(0, type.indexOf('.'))}:${id}`;

/**
 * Notes that the write changes another record's representation (a product's collections when a
 * collection's manual members change, a parent's children, attributes upserted by product options): its
 * event is appended with the write's own, with the record as it is when the write's work is done. One event
 * per record and write; the first type noted wins (a record created and then updated is `created`).
 */
export function noteChange(trx: Tx, type: EventType, id: string, load: () => Promise<object>, record?: Noted['record']): void {
  let noted = notedBy.get(trx);
  if (!noted) {
    noted = new Map();
    notedBy.set(trx, noted);
  }
  const key = keyOf(type, id);
  if (!noted.has(key)) noted.set(key, { type, load, record });
}

/**
 * Drops what the transaction's work noted so far: an import line rolled back to its savepoint must not
 * leave its derived events to the next line's append.
 */
export function forgetNotedChanges(trx: Tx): void {
  notedBy.delete(trx);
}

/** Reads a record of one kind as GET returns it (404 AppError when it is gone). */
export type RecordLoader = (trx: Tx, storeId: string, id: string) => Promise<object>;
/** Reads several records of one kind in one query; those that are gone are left out. */
export type RecordsLoader = (trx: Tx, storeId: string, ids: string[]) => Promise<{ id: string }[]>;
/**
 * Stores the representation of records a write created or changed (`body`: the JSON its event carries), in
 * the write's transaction; `last` as for `appendEvents`.
 */
export type DocumentsWriter = (trx: Tx, storeId: string, documents: { id: string; body: string }[], last: boolean) => Promise<void>;

/**
 * How the feed reads the records of one kind that a write changed as a side effect (collections changing
 * products' memberships: a folder may note a change to a record of a folder it must not import). With
 * `loadMany`, the records of that kind a write noted are read in one query (a checkout's three products: one
 * round trip, not three); with `storeDocuments`, the kind keeps a stored document of each record, written
 * with the text of its `created`/`updated` event (products: src/products/products.documents.ts).
 */
export interface RecordKindFeed {
  load: RecordLoader;
  loadMany?: RecordsLoader;
  storeDocuments?: DocumentsWriter;
}

// The record kinds app.ts passed in (the same functions for every app of the process).
const loaders = new Map<RecordKind, RecordLoader>();
const manyLoaders = new Map<RecordKind, RecordsLoader>();
const documentWriters = new Map<RecordKind, DocumentsWriter>();

/** Called once where the app is built, with each resource's kind: how the feed reads and stores its records. */
export function useRecordKinds(kinds: Partial<Record<RecordKind, RecordKindFeed>>): void {
  for (const [kind, feed] of Object.entries(kinds) as [RecordKind, RecordKindFeed][]) {
    loaders.set(kind, feed.load);
    if (feed.loadMany) manyLoaders.set(kind, feed.loadMany);
    if (feed.storeDocuments) documentWriters.set(kind, feed.storeDocuments);
  }
}

/** `noteChange` with the loader the record's resource registered: `*.updated` of each of `ids`. */
export function noteUpdated(trx: Tx, storeId: string, kind: RecordKind, ids: Iterable<string>): void {
  for (const id of ids) noteChange(trx, `${kind}.updated`, id, () => loaderOf(kind)(trx, storeId, id), { kind, storeId, id });
}

// Looked up when the events are appended, not when noted: a script calling services outside the write
// door (bench seeds) appends nothing and needs no routes registered.
function loaderOf(kind: RecordKind): RecordLoader {
  const loader = loaders.get(kind);
  if (!loader) throw new Error(`no record kind ${kind} passed to useRecordKinds (src/app.ts)`);
  return loader;
}

/**
 * Appends the write's own event(s) (a batch of import lines has several) and the derived ones noted during
 * its work, in the write's transaction, in one statement (`last`: nothing of the transaction's work follows
 * but the bookkeeping of the write door, so it may be sent with the COMMIT). A derived record that no longer exists (the write
 * deleted it) is skipped, as is one that is already among the write's own.
 */
export async function appendEvents(
  trx: Tx,
  storeId: string,
  own: NewEvent | readonly NewEvent[] | null,
  { last = false }: { last?: boolean } = {},
): Promise<void> {
  const noted = notedBy.get(trx);
  notedBy.delete(trx);
  const events: NewEvent[] = own === null ? [] : 'type' in own ? [own] : [...own];
  const ownKeys = new Set(events.flatMap((event) => ('id' in event.data ? [keyOf(event.type, String(event.data.id))] : [])));
  const pending = [...(noted ?? [])].filter(([key]) => !ownKeys.has(key)).map(([, entry]) => entry);
  const readTogether = await loadMany(trx, pending);
  for (const { type, load, record } of pending) {
    const data = record && readTogether.has(record.kind) ? readTogether.get(record.kind)?.get(record.id) : await loadUnlessGone(load);
    if (data) events.push({ type, data });
  }
  if (!events.length) return;
  // Serialized once: the event's data and the record's stored document are the same text.
  const texts = events.map((event) => JSON.stringify(event.data));
  await storeDocuments(trx, storeId, events, texts, last);
  if (benchSkipsEvents()) return;
  // Webhook deliveries are derived from the feed later, by the workers (migrations/0030): a write pays
  // nothing for them. The write's last statement needs no answer of its own: it travels with the COMMIT (src/db/statements/deferred.ts).
  await (last ? insertEventsWithCommit : insertEvents)(trx, storeId, events, texts);
}

/**
 * The step of every write that stores documents: those of the created and updated records whose kind keeps
 * them, one statement per kind, with the text their events carry.
 */
async function storeDocuments(trx: Tx, storeId: string, events: NewEvent[], texts: string[], last: boolean): Promise<void> {
  const byKind = new Map<RecordKind, { id: string; body: string }[]>();
  events.forEach(({ type, data }, i) => {
    const [kind, change] = type.split('.') as [RecordKind, string];
    if (change === 'deleted' || !documentWriters.has(kind) || !('id' in data)) return;
    byKind.set(kind, [...(byKind.get(kind) ?? []), { id: String(data.id), body: texts[i] }]);
  });
  for (const [kind, documents] of byKind) await (documentWriters.get(kind) as DocumentsWriter)(trx, storeId, documents, last);
}

// The benchmark's baseline for the cost of events (bench/instrument.mjs sets it over its IPC channel, between
// rounds): no event, hence no fan-out. The records are still read and their documents written: those serve
// GET, not the feed. Not configuration: nothing outside the bench process's
// preload can set it, and it is read only here.
const BENCH_SKIP_EVENTS = Symbol.for('storefront.bench.skipEvents');
const benchSkipsEvents = () => (globalThis as Record<symbol, unknown>)[BENCH_SKIP_EVENTS] === true;

/** The noted records of each kind that has a many-loader, read in one query per kind (by id; the gone are absent). */
async function loadMany(trx: Tx, noted: Noted[]): Promise<Map<RecordKind, Map<string, object>>> {
  const byKind = new Map<RecordKind, { storeId: string; ids: string[] }>();
  for (const { record } of noted) {
    if (!record || !manyLoaders.has(record.kind)) continue;
    const group = byKind.get(record.kind) ?? { storeId: record.storeId, ids: [] };
    group.ids.push(record.id);
    byKind.set(record.kind, group);
  }
  const read = new Map<RecordKind, Map<string, object>>();
  for (const [kind, { storeId, ids }] of byKind) {
    const records = await (manyLoaders.get(kind) as RecordsLoader)(trx, storeId, ids);
    read.set(kind, new Map(records.map((found) => [found.id, found])));
  }
  return read;
}

async function loadUnlessGone(load: () => Promise<object>): Promise<object | null> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  }
}
