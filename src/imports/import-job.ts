import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Tx } from '../db/index.js';
import { AppError, toAppError } from '../errors.js';
import { forgetNotedChanges } from '../events/index.js';
import type { AppContext } from '../http/index.js';
import { type BatchOutcome, type JobErrorInput, JobFailure, type JobKind } from '../jobs/index.js';
import { type FileLine, readLines } from './lines.js';
import type { ImportLineHandler } from './types.js';
import { importsDir, removeUpload } from './upload.js';

/**
 * The `import` job: reads the uploaded file from the job's resume position and applies its lines in
 * batches, each batch one transaction (committed with the job's counters and position by the runner).
 * A bad line rolls back to its own savepoint and becomes an error row; it never stops the job.
 */

/** What the line handlers need besides the transaction (product media). */
export type ImportContext = Pick<AppContext, 'config' | 'media'>;

export type ImportHandlers = Readonly<Record<string, ImportLineHandler | undefined>>;

export interface ImportJobSettings {
  dataDir: string;
  /** a line longer than this (the API's body limit) is a PAYLOAD_TOO_LARGE line */
  maxLineBytes: number;
  handlers: ImportHandlers;
  /** lines per batch (per transaction), at most */
  batchLines: number;
  /** milliseconds of work per batch, at most (the line that crosses it ends the batch) */
  batchMs: number;
  log: { error(object: object, message: string): void };
}

const BLANK = /^[ \t\r]*$/;

export const fileOf = (dataDir: string, params: Record<string, unknown>) => join(importsDir(dataDir), String(params.file));

export function importJobKind(settings: ImportJobSettings): JobKind {
  return {
    async run({ job, commitBatch }) {
      const handler = settings.handlers[job.resource];
      if (!handler) throw new JobFailure(`imports of ${job.resource} are not supported`);
      const path = fileOf(settings.dataDir, job.params);
      // Every server process must share the data dir: the job may run in another process than the upload.
      if (!existsSync(path)) throw new JobFailure('the import file is missing (every server process must share STOREFRONT_DATA_DIR)');
      const lines = readLines(path, Number(job.position_bytes), job.position_line, settings.maxLineBytes);
      let batch: FileLine[] = [];
      // A batch ends at batchLines lines or batchMs of work, whichever comes first: the lines it did not
      // reach start the next batch (on PGlite a transaction holds the one session, so this bounds how
      // long the API waits behind an import).
      const commit = async () => {
        let applied = 0;
        const going = await commitBatch(async (trx) => {
          const outcome = await applyBatch(trx, job.store_id, handler, batch, settings);
          applied = outcome.applied;
          return outcome;
        });
        batch = batch.slice(applied);
        return going;
      };
      for await (const line of lines) {
        batch.push(line);
        if (batch.length < settings.batchLines) continue;
        if (!(await commit())) return;
      }
      while (batch.length > 0) if (!(await commit())) return;
    },
    cleanup: (job) => removeUpload(fileOf(settings.dataDir, job.params)),
  };
}

async function applyBatch(trx: Tx, storeId: string, handler: ImportLineHandler, lines: FileLine[], settings: ImportJobSettings) {
  const outcome: BatchOutcome & { applied: number } = {
    progress: { processed: 0, created: 0, updated: 0, failed: 0, positionBytes: 0, positionLine: 0 },
    errors: [],
    applied: 0,
  };
  const { progress } = outcome;
  const deadline = performance.now() + settings.batchMs;
  for (const line of lines) {
    // at least one line per batch, so a slow line still moves the job on
    if (outcome.applied > 0 && performance.now() > deadline) break;
    outcome.applied++;
    progress.positionBytes = line.end;
    progress.positionLine = line.line;
    if (line.text !== null && BLANK.test(line.text)) continue;
    progress.processed++;
    const result = await applyLine(trx, storeId, handler, line, settings);
    if (typeof result === 'string') progress[result]++;
    else {
      progress.failed++;
      outcome.errors.push(result);
    }
  }
  return outcome;
}

const lineTooLarge = (limit: number) =>
  new AppError(413, 'PAYLOAD_TOO_LARGE', `The line is larger than the limit of ${limit} bytes (STOREFRONT_BODY_LIMIT)`);
const notJson = () => new AppError(400, 'INVALID_JSON', 'The line is not valid JSON');

/** One line under its own savepoint: its outcome, or its error row (the savepoint rolled back). */
async function applyLine(trx: Tx, storeId: string, handler: ImportLineHandler, line: FileLine, settings: ImportJobSettings) {
  if (line.text === null) return errorRow(line, lineTooLarge(settings.maxLineBytes));
  let value: unknown;
  try {
    value = JSON.parse(line.text);
  } catch {
    return errorRow(line, notJson());
  }
  await sql`SAVEPOINT import_line`.execute(trx);
  try {
    const outcome = await handler(trx, storeId, value);
    await sql`RELEASE SAVEPOINT import_line`.execute(trx);
    return outcome;
  } catch (error) {
    const appError = toAppError(error as Parameters<typeof toAppError>[0]);
    // The database going away (or a deadlock) is the batch's failure, not the line's: the batch is retried.
    if (appError.status === 503) throw error;
    await sql`ROLLBACK TO SAVEPOINT import_line`.execute(trx);
    forgetNotedChanges(trx);
    if (appError.status >= 500) settings.log.error({ err: error, line: line.line }, 'import line failed with an internal error');
    return errorRow(line, appError);
  }
}

function errorRow(line: FileLine, error: AppError): JobErrorInput {
  return { line: line.line, code: error.code, message: error.message, details: error.details };
}
