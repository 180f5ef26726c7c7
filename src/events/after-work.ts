import type { Tx } from '../db/index.js';
import { AppError } from '../errors.js';
import type { AfterWork, NewEvent, RecordKind } from '../shared/index.js';
import { insertEvents, insertEventsWithCommit } from './events.sql.js';
import { keyOf, type Noted, notedChanges, restoreNotedChanges, takeNotedChanges } from './notes.js';

/** Reads a record of one kind as GET returns it (404 AppError when it is gone). */
export type RecordLoader = (trx: Tx, storeId: string, id: string) => Promise<object>;
/** Reads several records of one kind in one query; those that are gone are left out. */
export type RecordsLoader = (trx: Tx, storeId: string, ids: string[]) => Promise<{ id: string }[]>;
/**
 * Stores the representation of records a write created or changed (`body`: the JSON its event carries), in
 * the write's transaction; `last` as for `append`.
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

export type RecordKinds = Partial<Record<RecordKind, RecordKindFeed>>;

export interface AfterWorkOptions {
  /**
   * Whether the events themselves are written (default: always). The benchmark's event-cost baseline makes
   * its own after-work that switches them off between rounds (bench/serve.ts): the records are still read
   * and the stored documents still written, since those serve GET, not the feed.
   */
  appendsEvents?: () => boolean;
}

/**
 * The after-work of every write (src/shared/after-work.ts), made once where the app is made, with each
 * resource's record kind: everything it needs is in this object, nothing is kept per process.
 */
export function createAfterWork(kinds: RecordKinds, { appendsEvents = () => true }: AfterWorkOptions = {}): AfterWork {
  const feedOf = (kind: RecordKind): RecordKindFeed => {
    const feed = kinds[kind];
    if (!feed) throw new Error(`no record kind ${kind} passed to createAfterWork (src/app.ts)`);
    return feed;
  };
  return {
    snapshot: (trx) => {
      const taken = new Map(notedChanges(trx));
      return () => restoreNotedChanges(trx, taken);
    },
    append: async (trx, storeId, own, { last = false } = {}) => {
      const events: NewEvent[] = own === null ? [] : 'type' in own ? [own] : [...own];
      events.push(...(await derivedEvents(trx, events, feedOf, kinds)));
      if (!events.length) return;
      // Serialized once: the event's data and the record's stored document are the same text.
      const texts = events.map((event) => JSON.stringify(event.data));
      await storeDocuments(trx, storeId, events, texts, last, kinds);
      if (!appendsEvents()) return;
      // Webhook deliveries are derived from the feed later, by the workers (migrations/0030): a write pays
      // nothing for them. The write's last statement needs no answer of its own: it travels with the COMMIT.
      await (last ? insertEventsWithCommit : insertEvents)(trx, storeId, events, texts);
    },
  };
}

/**
 * The events of the records the write's work noted, each read as it is now; a record that no longer exists
 * (the write deleted it) is skipped, as is one that is already among the write's own.
 */
async function derivedEvents(trx: Tx, own: NewEvent[], feedOf: (kind: RecordKind) => RecordKindFeed, kinds: RecordKinds) {
  const ownKeys = new Set(own.flatMap((event) => ('id' in event.data ? [keyOf(event.type, String(event.data.id))] : [])));
  const pending = [...takeNotedChanges(trx)].filter(([key]) => !ownKeys.has(key)).map(([, entry]) => entry);
  const readTogether = await loadMany(trx, pending, kinds);
  const events: NewEvent[] = [];
  for (const noted of pending) {
    const together = noted.record && readTogether.get(noted.record.kind);
    const data = together ? together.get(noted.record?.id ?? '') : await loadUnlessGone(() => readOne(trx, noted, feedOf));
    if (data) events.push({ type: noted.type, data });
  }
  return events;
}

/** A noted record read alone: by its own loader, or by its kind's. */
function readOne(trx: Tx, { load, record }: Noted, feedOf: (kind: RecordKind) => RecordKindFeed): Promise<object> {
  if (load) return load();
  const { kind, storeId, id } = record as NonNullable<Noted['record']>;
  return feedOf(kind).load(trx, storeId, id);
}

/**
 * The step of every write that stores documents: those of the created and updated records whose kind keeps
 * them, one statement per kind, with the text their events carry.
 */
async function storeDocuments(trx: Tx, storeId: string, events: NewEvent[], texts: string[], last: boolean, kinds: RecordKinds) {
  const byKind = new Map<RecordKind, { id: string; body: string }[]>();
  events.forEach(({ type, data }, i) => {
    const [kind, change] = type.split('.') as [RecordKind, string];
    if (change === 'deleted' || !kinds[kind]?.storeDocuments || !('id' in data)) return;
    byKind.set(kind, [...(byKind.get(kind) ?? []), { id: String(data.id), body: texts[i] }]);
  });
  for (const [kind, documents] of byKind) await kinds[kind]?.storeDocuments?.(trx, storeId, documents, last);
}

/** The noted records of each kind that has a many-loader, read in one query per kind (by id; the gone are absent). */
async function loadMany(trx: Tx, noted: Noted[], kinds: RecordKinds): Promise<Map<RecordKind, Map<string, object>>> {
  const byKind = new Map<RecordKind, { storeId: string; ids: string[] }>();
  for (const { record } of noted) {
    if (!record || !kinds[record.kind]?.loadMany) continue;
    const group = byKind.get(record.kind) ?? { storeId: record.storeId, ids: [] };
    group.ids.push(record.id);
    byKind.set(record.kind, group);
  }
  const read = new Map<RecordKind, Map<string, object>>();
  for (const [kind, { storeId, ids }] of byKind) {
    const records = (await kinds[kind]?.loadMany?.(trx, storeId, ids)) ?? [];
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
