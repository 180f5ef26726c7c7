import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Tx } from '../db/index.js';
import { AppError } from '../errors.js';
import { etagOf, type Pagination, storedListBytes } from '../shared/index.js';

/** Reads the record a conditional write is about, locked for the transaction, as GET would return it. */
export type CurrentLoader = (trx: Tx, storeId: string) => Promise<object>;

const tagsOf = (header: string) => header.split(',').map((tag) => tag.trim());

/** If-None-Match uses the weak comparison (RFC 9110 §13.1.2): W/"x" names "x". */
export function noneMatch(header: string, etag: string): boolean {
  const tags = tagsOf(header);
  return !tags.includes('*') && !tags.some((tag) => tag.replace(/^W\//, '') === etag);
}

/** If-Match uses the strong comparison (RFC 9110 §13.1.1): a weak tag never matches. */
export function ifMatchAccepts(header: string, etag: string): boolean {
  const tags = tagsOf(header);
  return tags.includes('*') || tags.includes(etag);
}

export const preconditionFailed = (currentEtag: string) =>
  new AppError(412, 'PRECONDITION_FAILED', 'The record has changed since the version named in If-Match', [], { ETag: currentEtag });

/**
 * The write, guarded by the request's If-Match: the current representation is read with its row locked,
 * in the write's transaction, so of two writes naming the same version exactly one proceeds.
 */
export function guardedByIfMatch<T>(
  request: FastifyRequest,
  current: CurrentLoader | undefined,
  work: (trx: Tx, storeId: string) => Promise<T>,
): (trx: Tx, storeId: string) => Promise<T> {
  const ifMatch = request.headers['if-match'];
  if (ifMatch === undefined || !current) return work;
  return async (trx, storeId) => {
    const etag = etagOf(await current(trx, storeId));
    if (!ifMatchAccepts(ifMatch, etag)) throw preconditionFailed(etag);
    return work(trx, storeId);
  };
}

interface SchemaLike {
  type?: unknown;
  properties?: Record<string, SchemaLike>;
}

/** A route whose success is one record: its 200/201 envelope's `data` is an object with an id and more. */
export function carriesOneRecord(route: RouteOptions): boolean {
  const responses = (route.schema?.response ?? {}) as Record<string, SchemaLike>;
  return [responses[200], responses[201]].some((envelope) => {
    const data = envelope?.properties?.data;
    return data?.type === 'object' && data.properties?.id !== undefined && Object.keys(data.properties).length > 1;
  });
}

/** preSerialization of a record route: the ETag of the `data` it is about to send. */
export async function setEtag(_request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const envelope = payload as { success?: boolean; data?: unknown } | null;
  if ((reply.statusCode === 200 || reply.statusCode === 201) && envelope?.success === true && envelope.data) {
    reply.header('ETag', etagOf(envelope.data));
  }
  return payload;
}

/** onSend of a record GET: the caller already has this version → 304, no body. */
export async function answerNotModified(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const ifNoneMatch = request.headers['if-none-match'];
  const etag = reply.getHeader('etag');
  if (reply.statusCode !== 200 || ifNoneMatch === undefined || typeof etag !== 'string' || noneMatch(ifNoneMatch, etag)) return payload;
  reply.code(304).removeHeader('content-type').removeHeader('content-length');
  return null;
}

/**
 * A record GET sends as stored (its canonical JSON and ETag, e.g. src/products/products.documents.ts): the
 * envelope `ok` would build, without parsing or serializing the record. The route's onSend hooks still run
 * (If-None-Match → 304).
 */
export function sendStoredRecord(reply: FastifyReply, stored: { etag: string; body: string }): FastifyReply {
  return reply.header('ETag', stored.etag).type('application/json; charset=utf-8').send(`{"success":true,"data":${stored.body}}`);
}

/**
 * A list page whose records are sent as stored (their JSON texts, as GET returns each): the envelope `okList`
 * would build, without parsing or serializing the records again (products, customers). `bytes`: the same answer
 * made once by the read that every request sharing it sends (storedListBytes).
 */
export function sendStoredList(
  reply: FastifyReply,
  { texts, pagination, bytes }: { texts: string[]; pagination: Pagination; bytes?: Buffer },
): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(bytes ?? storedListBytes(texts, pagination));
}
