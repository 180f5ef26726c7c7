import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Tx } from '../db/index.js';
import { AppError, toAppError } from '../errors.js';
import { forgetNotedChanges } from '../events/index.js';
import type { AppContext } from '../http/index.js';
import { type BatchOutcome, type JobErrorInput, JobFailure, type JobKind } from '../jobs/index.js';
import { type FileLine, readLines } from './lines.js';
import type { ImportBatchApplier, ImportBatchResult, ImportHandler, ImportLineHandler } from './types.js';
import { importsDir, removeUpload } from './upload.js';

/**
 * The `import` job: reads the uploaded file from the job's resume position and applies its lines in
 * batches, each batch one transaction (committed with the job's counters and position by the runner).
 * A bad line rolls back to its own savepoint and becomes an error row; it never stops the job.
 */

/** What the line handlers need besides the transaction (product media). */
export type ImportContext = Pick<AppContext, 'config' | 'media'>;

/** Per resource: its line handler alone, or with a batch applier (src/imports/types.ts). */
export type ImportHandlers = Readonly<Record<string, ImportLineHandler | ImportHandler | undefined>>;

const handlerOf = (given: ImportLineHandler | ImportHandler): ImportHandler => (typeof given === 'function' ? { line: given } : given);

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
      const given = settings.handlers[job.resource];
      if (!given) throw new JobFailure(`imports of ${job.resource} are not supported`);
      const handler = handlerOf(given);
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

/** A line of the batch once read: blank (skipped), its error row (not JSON, too large), or parsed. */
type ReadLine = 'blank' | JobErrorInput | { value: unknown; text: string };

function readLine(line: FileLine, settings: ImportJobSettings): ReadLine {
  if (line.text === null) return errorRow(line, lineTooLarge(settings.maxLineBytes));
  if (BLANK.test(line.text)) return 'blank';
  try {
    return { value: JSON.parse(line.text), text: line.text };
  } catch {
    return errorRow(line, notJson());
  }
}

const isParsed = (read: ReadLine): read is { value: unknown; text: string } => typeof read === 'object' && 'text' in read;
const wrote = (result: ImportBatchResult | undefined) => result === 'created' || result === 'updated';

async function applyBatch(trx: Tx, storeId: string, handler: ImportHandler, lines: FileLine[], settings: ImportJobSettings) {
  const outcome: BatchOutcome & { applied: number } = {
    progress: { processed: 0, created: 0, updated: 0, failed: 0, positionBytes: 0, positionLine: 0 },
    errors: [],
    applied: 0,
  };
  const { progress } = outcome;
  const deadline = performance.now() + settings.batchMs;
  const read = lines.map((line) => readLine(line, settings));
  const batched = handler.batch ? await applyBatchPart(trx, storeId, handler.batch, lines, read, settings) : [];
  // The lines up to the last one the batch part wrote are applied whatever the time (they are written);
  // after it, a line the batch part only judged (unchanged, an error) is judged again in the next batch.
  let lastWritten = -1;
  batched.forEach((result, index) => {
    if (wrote(result)) lastWritten = index;
  });
  for (const [index, line] of lines.entries()) {
    // at least one line per batch, so a slow line still moves the job on
    if (outcome.applied > 0 && index > lastWritten && performance.now() > deadline) break;
    outcome.applied++;
    progress.positionBytes = line.end;
    progress.positionLine = line.line;
    const lineRead = read[index];
    if (lineRead === 'blank') continue;
    progress.processed++;
    const result = isParsed(lineRead)
      ? (batched[index] ?? (await applyLine(trx, storeId, handler.line, line, lineRead, settings)))
      : lineRead;
    if (result === 'unchanged') progress.updated++;
    else if (typeof result === 'string') progress[result]++;
    else {
      progress.failed++;
      outcome.errors.push(result instanceof AppError ? errorRow(line, result) : result);
    }
  }
  return outcome;
}

/**
 * The resource's batch applier over the batch's parsed lines, under one savepoint: per line (by index in
 * `lines`) its result, or null where the line is left to the per-line handler. If the applier throws, its
 * savepoint is rolled back with what it noted, and every line is left to the per-line handler.
 */
async function applyBatchPart(
  trx: Tx,
  storeId: string,
  batch: ImportBatchApplier,
  lines: FileLine[],
  read: ReadLine[],
  settings: ImportJobSettings,
): Promise<ImportBatchResult[]> {
  const results: ImportBatchResult[] = lines.map(() => null);
  const parsed = read.flatMap((lineRead, index) => (isParsed(lineRead) ? [{ index, line: lines[index].line, ...lineRead }] : []));
  if (parsed.length === 0) return results;
  await sql`SAVEPOINT import_batch`.execute(trx);
  try {
    const applied = await batch(trx, storeId, parsed);
    await sql`RELEASE SAVEPOINT import_batch`.execute(trx);
    parsed.forEach(({ index }, i) => {
      results[index] = applied[i] ?? null;
    });
    return results;
  } catch (error) {
    // The database going away (or a deadlock) is the batch's failure: the whole batch is retried.
    if (toAppError(error as Parameters<typeof toAppError>[0]).status === 503) throw error;
    await sql`ROLLBACK TO SAVEPOINT import_batch`.execute(trx);
    forgetNotedChanges(trx);
    settings.log.error({ err: error, line: parsed[0].line }, 'import batch applier failed: its lines are applied one by one');
    return lines.map(() => null);
  }
}

const lineTooLarge = (limit: number) =>
  new AppError(413, 'PAYLOAD_TOO_LARGE', `The line is larger than the limit of ${limit} bytes (STOREFRONT_BODY_LIMIT)`);
const notJson = () => new AppError(400, 'INVALID_JSON', 'The line is not valid JSON');

/** One line under its own savepoint: its outcome, or its error row (the savepoint rolled back). */
async function applyLine(
  trx: Tx,
  storeId: string,
  handler: ImportLineHandler,
  line: FileLine,
  parsed: { value: unknown; text: string },
  settings: ImportJobSettings,
) {
  await sql`SAVEPOINT import_line`.execute(trx);
  try {
    const outcome = await handler(trx, storeId, parsed.value, parsed.text);
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
