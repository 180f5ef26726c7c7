import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { type Db, setSavepoint, type TransactionState, type Tx } from '../db/index.js';
import { type AppError, toAppError } from '../errors.js';
import { findRecord, type RecordedOutcome, saveRecord, tryLockKey } from './idempotency.sql.js';
import { claimOf, type KeyClaim, keyInUse, keyReused } from './keys.js';

/** What a response records: its status, its body as sent, and its ETag if it has one. */
export interface Recording {
  status: number;
  body: string;
  etag: string | null;
}

/** The one execution of a keyed write: its data, a recorded 4xx to answer with, or an earlier outcome to replay. */
export type Execution<T> = { data: T } | { error: unknown } | { replay: RecordedOutcome };

// Outcomes that depend on the request's own credentials, size, type or timing are not recorded: the client
// may fix them and retry with the same key. So are 400s (validation) and every 5xx.
const UNRECORDED = new Set([400, 401, 403, 409, 413, 415, 429]);

export const isRecorded = (status: number) => (status >= 200 && status < 300) || (status >= 400 && status < 500 && !UNRECORDED.has(status));

const claims = new WeakMap<FastifyRequest, KeyClaim>();

/** The key a write request claims (set by `claimKey`), or undefined. */
export const claimFor = (request: FastifyRequest): KeyClaim | undefined => claims.get(request);

/** preValidation of every write: a malformed key is a 400 before anything else; a usable one is claimed. */
export async function claimKey(request: FastifyRequest): Promise<void> {
  const claim = claimOf(request);
  if (claim) claims.set(request, claim);
}

/**
 * The error handler of every write, for the one case where the key must win over the body: a keyed
 * request whose body fails validation replays the key's outcome (or is refused as a different request)
 * when the key has one. Looking only then keeps a query off every valid request; a valid body meets the
 * record inside sendWrite's transaction. Anything else goes on to the app's error handler.
 */
export function answerInvalidRetry(db: Db) {
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const claim = claims.get(request);
    if (!error.validation || !claim) throw error;
    const recorded = await findRecord(db, request.auth.storeId, claim.key);
    if (!recorded) throw error;
    return sendReplay(reply, claim, recorded);
  };
}

/** The recorded status and body, byte for byte, marked as a replay. */
export function sendReplay(reply: FastifyReply, claim: KeyClaim, recorded: RecordedOutcome): FastifyReply {
  if (recorded.fingerprint !== claim.fingerprint) throw keyReused(recorded.method, recorded.path);
  reply.code(recorded.status).type('application/json; charset=utf-8').header('Idempotent-Replayed', 'true');
  if (recorded.etag) reply.header('ETag', recorded.etag);
  return reply.send(recorded.body);
}

interface OnceOptions<T> {
  storeId: string;
  claim: KeyClaim;
  ttlSeconds: number;
  /** the response the data or the error will be, as it will be sent */
  record: (outcome: { data: T } | { error: AppError }) => Recording;
  /** what the write keeps beside the database (the after-work's noted changes): undone with a recorded 4xx */
  states: readonly TransactionState[];
}

/**
 * Runs `write` as the key's only execution, inside the request's transaction. The key's advisory lock is
 * the transaction's first statement: held, it means another request with the key is running (409);
 * taken, a committed record means this is a retry. The record is inserted in the same transaction as the
 * write; a recorded 4xx undoes the write's partial work (savepoint) but keeps its record.
 */
export async function executeOnce<T>(trx: Tx, write: (trx: Tx) => Promise<T>, options: OnceOptions<T>): Promise<Execution<T>> {
  const { storeId, claim, ttlSeconds, record, states } = options;
  if (!(await tryLockKey(trx, storeId, claim.key))) throw keyInUse();
  const recorded = await findRecord(trx, storeId, claim.key);
  if (recorded) return { replay: recorded };
  const point = await setSavepoint(trx, 'idempotent_write', states);
  try {
    const data = await write(trx);
    await saveRecord(trx, storeId, claim, record({ data }), ttlSeconds);
    return { data };
  } catch (error) {
    const appError = toAppError(error as never);
    if (!isRecorded(appError.status)) throw error;
    await point.rollBack();
    await saveRecord(trx, storeId, claim, record({ error: appError }), ttlSeconds);
    return { error };
  }
}
