import type { Client } from 'openapi-fetch';
import { StorefrontError } from './errors.js';
import type { paths } from './schema.js';

type EventsGet = paths['/events']['get'];
type EventsBody = EventsGet['responses'][200]['content']['application/json'];
/** One event of the feed: `{id, type, createdAt, data}`. */
export type FeedEvent = EventsBody['data'][number];
export type EventType = FeedEvent['type'];

export interface ListenOptions {
  /** a `cursor` saved from an earlier batch: resume right after it (without it: `after`, else the feed's start) */
  cursor?: string | null;
  /** start after this event id (only without `cursor`) */
  after?: string;
  /** only these types (the saved cursor is bound to them: resume with the same ones) */
  types?: readonly EventType[];
  /** events per request, 1..250 (default 100; the saved cursor is bound to it too) */
  limit?: number;
  /** seconds the server holds a request while nothing new has committed, 1..60 (default 30) */
  wait?: number;
  /** stops following: the loop ends (a request in flight is aborted) */
  signal?: AbortSignal;
}

/** A page of the feed, and the cursor to save once its events are handled: resuming from it never skips one. */
export interface EventBatch {
  events: FeedEvent[];
  cursor: string;
}

/**
 * Follows the store's event feed as it grows: each batch as soon as it has committed (the server's long
 * poll, `wait`), never an empty one, never the same event twice within one run, and the cursor only moves
 * on when the consumer asks for the next batch, i.e. after it handled this one. Save `batch.cursor` after
 * handling `batch.events`: a consumer that stops or crashes anywhere resumes from the last saved cursor
 * and sees again at most the batch it had not finished (handle events idempotently, by `id`).
 */
export async function* listenToEvents(client: Client<paths>, options: ListenOptions = {}): AsyncGenerator<EventBatch, void, undefined> {
  const { signal } = options;
  const base = {
    limit: options.limit ?? 100,
    wait: options.wait ?? 30,
    ...(options.types?.length ? { types: options.types.join(',') } : {}),
  };
  let position = options.cursor ? { cursor: options.cursor } : options.after ? { after: options.after } : {};
  while (!signal?.aborted) {
    const result = await client.GET('/events', { params: { query: { ...base, ...position } }, signal }).catch((error: unknown) => {
      if (signal?.aborted) return null;
      throw error;
    });
    if (!result) return;
    if (!result.response.ok || !result.data) throw StorefrontError.from(result.response, result.error);
    const { data, pagination } = result.data;
    position = { cursor: pagination.nextCursor };
    if (data.length) yield { events: data, cursor: pagination.nextCursor };
  }
}
