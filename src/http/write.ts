import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Tx, withTx } from '../db/index.js';
import { type AppError, errorEnvelope } from '../errors.js';
import { claimFor, executeOnce, type Recording, sendReplay } from '../idempotency/index.js';
import { type AfterWork, type EventType, etagOf, ok } from '../shared/index.js';
import type { AppContext } from './context.js';
import { type CurrentLoader, guardedByIfMatch } from './etag.js';

/** What a write route hands to the write path: the service call, given the request's transaction and store. */
export type WriteWork<T> = (trx: Tx, storeId: string) => Promise<T>;

export interface WriteOptions<T = unknown> {
  /** the success status (default 200) */
  status?: 200 | 201 | 202;
  /** for PATCH and DELETE of a record: reads it as GET returns it, row locked, so If-Match is checked atomically */
  current?: CurrentLoader;
  /** the event's data when it is not the work's result: a variant's change is its product's event */
  eventData?: (trx: Tx, storeId: string) => Promise<object>;
  /**
   * What the Idempotency-Key record keeps of the result, when it must not be all of it: a secret shown
   * once (a new API key) is never stored, so a replay answers without it.
   */
  recordAs?: (data: T) => unknown;
  /**
   * `noted`: the work notes every event itself (one per record it changed, as a `set` of many inventory
   * levels does); the route's config.event names their type, and no event of the route's own is appended.
   */
  events?: 'noted';
}

type Sent<T> = { success: true; data: T } | undefined;

/**
 * The one door every write of the API goes through (POST, PATCH, DELETE under /api/v1, except
 * POST /auth): one transaction per request, the envelope built here. What must happen atomically with
 * every write (idempotency records, version checks, events) hooks in here, not in each route.
 * Resolves to nothing when it has sent the response itself (a replay).
 */
export async function sendWrite<T>(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  work: WriteWork<T>,
  options: 200 | 201 | 202 | WriteOptions<T> = 200,
): Promise<Sent<T>> {
  const { status = 200, current: loader, eventData, recordAs, events } = typeof options === 'number' ? { status: options } : options;
  const { storeId } = request.auth;
  const current = oncePerTransaction(loader);
  const guarded = withEvent(ctx.afterWork, request, { current, eventData, events }, guardedByIfMatch(request, current, work));
  const claim = claimFor(request);
  if (!claim) {
    const data = await withTx(ctx.db, (trx) => guarded(trx, storeId));
    await ctx.consistency?.afterWrite(request, reply);
    reply.status(status);
    return ok(data);
  }
  const record = (outcome: { data: T } | { error: AppError }) =>
    recordingOf(request, reply, status, 'data' in outcome && recordAs ? { data: recordAs(outcome.data) } : outcome);
  const ttlSeconds = ctx.config.idempotencyTtl;
  const execution = await withTx(ctx.db, (trx) =>
    executeOnce(trx, (t) => guarded(t, storeId), { storeId, claim, ttlSeconds, record, states: [ctx.afterWork] }),
  );
  // a replay's write committed before: the position now is past it too
  if (!('error' in execution)) await ctx.consistency?.afterWrite(request, reply);
  if ('replay' in execution) {
    sendReplay(reply, claim, execution.replay);
    return undefined;
  }
  if ('error' in execution) throw execution.error;
  reply.status(status);
  return ok(execution.data);
}

/**
 * The work, then the route's event (config.event) and the derived ones its work noted, in the same
 * transaction: a rolled-back write has none, a replay never runs this. A delete's data is the record as
 * it was (the route's `current` loader, read before the work); without a loader, what the work returned.
 */
function withEvent<T>(
  afterWork: AfterWork,
  request: FastifyRequest,
  sources: Pick<WriteOptions<T>, 'current' | 'eventData' | 'events'>,
  work: WriteWork<T>,
): WriteWork<T> {
  const type = request.routeOptions.config.event;
  // Without an event of its own, a write still appends what its work noted (a location's deactivation
  // changes the totals of products); with nothing noted that costs no statement.
  if (!type || sources.events === 'noted') {
    return async (trx, storeId) => {
      const result = await work(trx, storeId);
      await afterWork.append(trx, storeId, null, { last: true });
      return result;
    };
  }
  return async (trx, storeId) => {
    const before = isDelete(type) && sources.current ? await sources.current(trx, storeId) : null;
    const result = await work(trx, storeId);
    const data = before ?? (sources.eventData ? await sources.eventData(trx, storeId) : recordOf(result, request));
    await afterWork.append(trx, storeId, { type, data }, { last: true });
    return result;
  };
}

const isDelete = (type: EventType) => type.endsWith('.deleted');

/** The record a write returned, or at least its id (DELETE /addresses/{id} returns null). */
function recordOf(result: unknown, request: FastifyRequest): object {
  if (result !== null && typeof result === 'object' && 'id' in result) return result;
  return { id: (request.params as { id?: string }).id };
}

/** The loader read at most once per transaction: a delete's event and its If-Match check share one read. */
function oncePerTransaction(current: CurrentLoader | undefined): CurrentLoader | undefined {
  if (!current) return undefined;
  const loaded = new WeakMap<Tx, Promise<object>>();
  return (trx, storeId) => {
    const known = loaded.get(trx);
    if (known) return known;
    const loading = current(trx, storeId);
    loaded.set(trx, loading);
    return loading;
  };
}

/** The response an outcome will be, serialized by the route's own schema so a replay is byte for byte. */
function recordingOf(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  outcome: { data: unknown } | { error: AppError },
): Recording {
  if ('error' in outcome) {
    const { error } = outcome;
    return { status: error.status, body: serializeAs(reply, error.status, errorEnvelope(error)), etag: error.headers.ETag ?? null };
  }
  const etag = request.routeOptions.config.etag ? etagOf(outcome.data) : null;
  return { status, body: serializeAs(reply, status, ok(outcome.data)), etag };
}

// The route's serializer is chosen by the reply's status; JSON serializers return strings.
function serializeAs(reply: FastifyReply, status: number, payload: unknown): string {
  reply.code(status);
  return String(reply.serialize(payload));
}
