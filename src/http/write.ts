import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Tx, withTx } from '../db/transaction.js';
import { ok } from '../shared/envelope.js';
import type { AppContext } from './context.js';

/** What a write route hands to the write path: the service call, given the request's transaction and store. */
export type WriteWork<T> = (trx: Tx, storeId: string) => Promise<T>;

/**
 * The one door every write of the API goes through (POST, PATCH, DELETE under /api/v1, except
 * POST /auth): one transaction per request, the envelope built here. What must happen atomically with
 * every write (idempotency records, version checks, events) hooks in here, not in each route.
 */
export async function sendWrite<T>(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  work: WriteWork<T>,
  status: 200 | 201 = 200,
): Promise<{ success: true; data: T }> {
  const data = await withTx(ctx.db, (trx) => work(trx, request.auth.storeId));
  reply.status(status);
  return ok(data);
}
