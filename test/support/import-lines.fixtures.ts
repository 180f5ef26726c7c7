import { expect } from 'vitest';
import { setSavepoint, type Tx, withTx } from '../../src/db/index.js';
import { AppError, toAppError } from '../../src/errors.js';
import type { ImportLineOptions } from '../../src/shared/index.js';
import type { TestContext, TestStore } from '../helpers.js';
import { type FeedEvent, feedOf } from './feed.fixtures.js';

/** Test helpers of the resources' import line handlers (not a test file itself). */

export type LineHandler = (
  trx: Tx,
  storeId: string,
  line: unknown,
  text: string,
  options: ImportLineOptions,
) => Promise<'created' | 'updated'>;

/** An upload without a Prefer header: unknown names in a line are its error. */
export const STRICT_LINE = { handling: 'strict' } as const;

/**
 * Runs one line as the import engine does, in a batch of one: under a savepoint, a refused line rolled back
 * to it, its error as the API's (a database error mapped as the error handler maps it), its noted changes
 * forgotten. The batch commits either way, so a refused line must have left nothing behind.
 */
export function runLine(
  t: TestContext,
  store: TestStore,
  handler: LineHandler,
  line: unknown,
  given: Omit<ImportLineOptions, 'afterWork'> = STRICT_LINE,
) {
  const options: ImportLineOptions = { ...given, afterWork: t.afterWork };
  return withTx(t.database.db, async (trx) => {
    const point = await setSavepoint(trx, 'import_line', [t.afterWork]);
    try {
      const outcome = await handler(trx, store.id, line, JSON.stringify(line), options);
      await point.release();
      return { outcome };
    } catch (error) {
      await point.rollBack();
      return { error: toAppError(error as Parameters<typeof toAppError>[0]) };
    }
  }).then((result) => {
    if ('error' in result) throw result.error;
    return result.outcome;
  });
}

/** The AppError a line throws, as the envelope's error (it must throw one: a bad line is never a 5xx). */
export async function lineError(t: TestContext, store: TestStore, handler: LineHandler, line: unknown) {
  const error = await runLine(t, store, handler, line).then(
    (outcome) => {
      throw new Error(`the line was ${outcome}, not refused`);
    },
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError)) throw error;
  return { status: error.status, code: error.code, details: error.details };
}

/** The error the API answers for the same body: what the line's error must equal. */
export async function apiError(t: TestContext, store: TestStore, method: string, url: string, body: unknown) {
  const reply = await t.call(store, method, url, body);
  expect(reply.status, JSON.stringify(reply.body)).toBeGreaterThanOrEqual(400);
  return { status: reply.status, code: reply.body.error.code, details: reply.body.error.details };
}

/** The events a line appends (read through GET /events), with the line's outcome. */
export async function lineEvents(
  t: TestContext,
  store: TestStore,
  handler: LineHandler,
  line: unknown,
): Promise<{ outcome: string; events: FeedEvent[] }> {
  const { eventsOf } = feedOf(() => t);
  let outcome = '';
  const events = await eventsOf(store, async () => {
    outcome = await runLine(t, store, handler, line);
  });
  return { outcome, events };
}

/** The record as GET returns it. */
export async function fetched(t: TestContext, store: TestStore, url: string) {
  const reply = await t.call(store, 'GET', url);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.data;
}
