/**
 * A sync consumer on the typed client's `events.listen()` (docs/events.md, "A consumer"; docs/client.md):
 * keeps a local copy of the store's products (here a JSON file; in real life your database) in step with
 * the store, live, and survives being stopped or killed at any point.
 *
 *   STOREFRONT_URL=http://127.0.0.1:3000/api/v1 STOREFRONT_API_KEY=sfk_… npx tsx examples/sync-consumer.ts [state.json]
 *
 * The key needs `events:read` and `products:read` (the feed shows only what the key may read). Stop it with
 * Ctrl-C; start it again and it carries on from where it stopped, without missing a change.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createStorefrontClient, type FeedEvent } from '../src/client/index.js';

interface State {
  /** the feed position after the last event applied: saved together with what it applied */
  cursor: string | null;
  products: Record<string, { id: string; title: string; updatedAt: string }>;
}

const apiKey = process.env.STOREFRONT_API_KEY;
if (!apiKey)
  throw new Error('set STOREFRONT_API_KEY (npx storefront api-keys create --store acme --name sync --scopes events:read,products:read)');
const client = createStorefrontClient({ baseUrl: process.env.STOREFRONT_URL ?? 'http://127.0.0.1:3000/api/v1', apiKey });
const file = process.argv[2] ?? 'sync-state.json';

const state: State = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { cursor: null, products: {} };

/** The copy and its cursor in one atomic write (a rename): a crash leaves the old pair or the new, never a mix. */
function save(): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(state));
  renameSync(`${file}.tmp`, file);
}

/** Applying an event twice leaves the same copy (a batch is seen again after a crash before its save). */
function apply(event: FeedEvent): void {
  const record = event.data as { id: string; title?: string; updatedAt?: string };
  if (event.type === 'product.deleted') delete state.products[record.id];
  else state.products[record.id] = { id: record.id, title: String(record.title), updatedAt: String(record.updatedAt) };
}

const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
process.once('SIGTERM', () => stop.abort());

console.log(`following the feed from ${state.cursor ? 'the saved cursor' : 'the start'}; ${Object.keys(state.products).length} products`);
const types = ['product.created', 'product.updated', 'product.deleted'] as const;
for await (const batch of client.events.listen({ cursor: state.cursor, types: [...types], wait: 30, signal: stop.signal })) {
  for (const event of batch.events) apply(event);
  state.cursor = batch.cursor;
  save();
  console.log(`${batch.events.length} event(s) applied; ${Object.keys(state.products).length} products`);
}
console.log('stopped; the next run resumes from the saved cursor');
