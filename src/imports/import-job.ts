import type { Config } from '../config.js';
import { setSavepoint, type Tx } from '../db/index.js';
import { AppError, toAppError } from '../errors.js';
import { type BatchOutcome, type JobErrorInput, JobFailure, type JobKind, type JobRow } from '../jobs/index.js';
import { layoutNamed } from '../platforms/index.js';
import type {
  AfterWork,
  ImportBatchApplier,
  ImportBatchResult,
  ImportHandler,
  ImportLineHandler,
  ImportLineOptions,
  MediaStore,
} from '../shared/index.js';
import { jsonNestsDeeperThan, tooDeep } from '../shared/index.js';
import type { CsvParams } from './csv.js';
import { joinCollections } from './csv-collections.js';
import { notUtf8Line, UNREADABLE } from './csv-encoding.js';
import { readCsvLines } from './csv-source.js';
import { DryRunKeys } from './dry-run.js';
import { rememberApplied, replayEarlier } from './dry-run-replay.js';
import { sourceOf } from './failed-rows.js';
import { type CsvLine, type FileLine, isCsvLine, readLines } from './lines.js';
import { applyMarketPrices, checkMarketPrices } from './market-prices.js';
import type { UploadStore } from './upload.js';

/**
 * The `import` job: reads the uploaded file from the job's resume position and applies its lines in
 * batches, each batch one transaction (committed with the job's counters and position by the runner).
 * A bad line rolls back to its own savepoint and becomes an error row; it never stops the job.
 */

/** What the line handlers need besides the transaction (product media). */
export interface ImportContext {
  config: Config;
  media: MediaStore;
  /** the app's after-work (src/shared/after-work.ts): every line's events go through it */
  afterWork: AfterWork;
}

/** Per resource: its line handler alone, or with a batch applier (src/imports/types.ts). */
export type ImportHandlers = Readonly<Record<string, ImportLineHandler | ImportHandler | undefined>>;

const handlerOf = (given: ImportLineHandler | ImportHandler): ImportHandler => (typeof given === 'function' ? { line: given } : given);
const collectionsHandler = (settings: ImportJobSettings) => {
  const given = settings.handlers.collections;
  return given ? handlerOf(given).line : undefined;
};

export interface ImportJobSettings {
  /** where the job's upload is (src/imports/upload.ts) */
  uploads: UploadStore;
  /** a line longer than this (the API's body limit) is a PAYLOAD_TOO_LARGE line */
  maxLineBytes: number;
  handlers: ImportHandlers;
  /** lines per batch (per transaction), at most */
  batchLines: number;
  /** milliseconds of work per batch, at most (the line that crosses it ends the batch) */
  batchMs: number;
  log: { error(object: object, message: string): void };
  /** the app's after-work, given to every line and batch, told what a rolled-back savepoint undoes */
  afterWork: AfterWork;
  /** told the lines of each committed batch (GET /metrics) */
  onLinesCommitted?: (lines: number) => void;
}

const BLANK = /^[ \t\r]*$/;

const uploadOf = (params: Record<string, unknown>) => String(params.file);

/** The line options the upload stored with its job (a job stored before they existed is strict). */
const lineOptionsOf = (params: Record<string, unknown>, afterWork: AfterWork): ImportLineOptions => ({
  handling: params.handling === 'lenient' ? 'lenient' : 'strict',
  afterWork,
  ...(params.marketCurrencies ? { marketCurrencies: params.marketCurrencies as Record<string, string> } : {}),
});

export function importJobKind(settings: ImportJobSettings): JobKind {
  return {
    async run({ job, commitBatch }) {
      const given = settings.handlers[job.resource];
      if (!given) throw new JobFailure(`imports of ${job.resource} are not supported`);
      const handler = handlerOf(given);
      const options = lineOptionsOf(job.params, settings.afterWork);
      const dryRun = job.params.dryRun === true ? new DryRunKeys(job.resource, job.store_id, job.id) : null;
      const lines = await openLines(job, settings);
      let batch: FileLine[] = [];
      // A batch ends at batchLines lines or batchMs of work, whichever comes first: the lines it did not
      // reach start the next batch (on PGlite a transaction holds the one session, so this bounds how
      // long the API waits behind an import).
      const commit = async () => {
        let applied = 0;
        let processed = 0;
        const going = await commitBatch(async (trx) => {
          const work = () => applyBatch(trx, job.store_id, handler, batch, options, settings, dryRun ? { trx, keys: dryRun } : null);
          dryRun?.forget();
          const outcome = dryRun ? await rolledBack(trx, settings.afterWork, work) : await work();
          await dryRun?.save(trx);
          applied = outcome.applied;
          processed = outcome.progress.processed;
          return outcome;
        });
        // commitBatch returned: the batch's transaction committed (or never ran, processed stays 0)
        settings.onLinesCommitted?.(processed);
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
    cleanup: (job) => settings.uploads.remove(uploadOf(job.params)),
  };
}

/** The job's lines from its resume position (or from the start), NDJSON or CSV. */
async function openLines(job: JobRow, settings: ImportJobSettings): Promise<AsyncIterable<FileLine>> {
  const position = Number(job.position_bytes);
  const positionLine = job.position_line;
  const csv = job.params.csv as CsvParams | undefined;
  // a layout whose reader needs the lines before the resume point (a variation's parent) reads from the start
  const replay = csv !== undefined && position > 0 && layoutNamed(csv.layout)?.replaysOnResume === true;
  const source = await settings.uploads.open(uploadOf(job.params), replay ? 0 : position);
  // On the embedded engine the upload is a file of the one process's data dir; on PostgreSQL it is in the database.
  if (!source) throw new JobFailure('the import file is missing');
  if (!csv) return readLines(source, position, positionLine, settings.maxLineBytes);
  if (replay) return readCsvLines(source, 0, 0, csv, settings.maxLineBytes, positionLine);
  return readCsvLines(source, position, positionLine, csv, settings.maxLineBytes);
}

/** A dry run's batch: applied as a real one, then rolled back to a savepoint with the events it noted. */
async function rolledBack<T>(trx: Tx, afterWork: AfterWork, work: () => Promise<T>): Promise<T> {
  const point = await setSavepoint(trx, 'dry_run', [afterWork]);
  const outcome = await work();
  await point.rollBack();
  return outcome;
}

/** A line of the batch once read: blank (skipped), its error row (not JSON, too large), or parsed. */
type ReadLine = 'blank' | JobErrorInput | { value: unknown; text: string };

function readLine(line: FileLine, settings: ImportJobSettings): ReadLine {
  if (isCsvLine(line)) return line.read instanceof AppError ? errorRow(line, line.read) : line.read;
  if (line.text === null) return errorRow(line, lineTooLarge(settings.maxLineBytes));
  if (BLANK.test(line.text)) return 'blank';
  // read as UTF-8, bytes that are not became U+FFFD: never stored (docs/imports.md)
  if (line.text.includes(UNREADABLE)) return errorRow(line, notUtf8Line());
  // refused before parsing, as the API refuses such a body: the handlers walk a line recursively
  if (jsonNestsDeeperThan(line.text)) return errorRow(line, tooDeep());
  try {
    return { value: JSON.parse(line.text), text: line.text };
  } catch {
    return errorRow(line, notJson());
  }
}

const isParsed = (read: ReadLine): read is { value: unknown; text: string } => typeof read === 'object' && 'text' in read;
const wrote = (result: ImportBatchResult | undefined) => result === 'created' || result === 'updated';

async function applyBatch(
  trx: Tx,
  storeId: string,
  handler: ImportHandler,
  lines: FileLine[],
  options: ImportLineOptions,
  settings: ImportJobSettings,
  dryRun: { trx: Tx; keys: DryRunKeys } | null,
) {
  const createdLocations: string[] = [];
  const outcome: BatchOutcome & { applied: number } = {
    progress: { processed: 0, created: 0, updated: 0, failed: 0, warnings: 0, positionBytes: 0, positionLine: 0 },
    errors: [],
    applied: 0,
    createdLocations,
  };
  const { progress } = outcome;
  const deadline = performance.now() + settings.batchMs;
  const read = lines.map((line) => readLine(line, settings));
  if (dryRun) await replayEarlier(trx, storeId, dryRun.keys, read.filter(isParsed), handler.line, collectionsHandler(settings), options);
  // a dry run keeps the lines that write as they were read, before their collections are joined
  const given = [...read];
  await withCollections(trx, storeId, lines, read, options, settings);
  const marketItems = await checkMarkets(trx, storeId, lines, read, options);
  const batched = handler.batch ? await applyBatchPart(trx, storeId, handler.batch, lines, read, options, settings) : [];
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
    progress.positionLine = isCsvLine(line) ? line.positionLine : line.line;
    const lineRead = read[index];
    if (lineRead === 'blank') continue;
    progress.processed++;
    const written = isParsed(lineRead)
      ? (batched[index] ?? (await applyLine(trx, storeId, handler.line, line, lineRead, options, settings, createdLocations)))
      : lineRead;
    const applied = await withMarketPrices(trx, storeId, line, lineRead, written, marketItems.get(index), options);
    const result =
      dryRun && isParsed(lineRead) && typeof applied === 'string' ? await dryRun.keys.judge(dryRun.trx, lineRead.value, applied) : applied;
    const kept = given[index];
    if (dryRun && (result === 'created' || result === 'updated') && isParsed(kept)) rememberApplied(dryRun.keys, line, kept);
    if (typeof result === 'string') {
      progress[result === 'unchanged' ? 'updated' : result]++;
      const warnings = warningRows(line);
      progress.warnings += warnings.length;
      outcome.errors.push(...warnings);
    } else {
      progress.failed++;
      if (result !== null) outcome.errors.push(result instanceof AppError ? errorRow(line, result) : result);
    }
  }
  return outcome;
}

/** CSV lines that join collections (WooCommerce categories) get their ids, or their error row (csv-collections.ts). */
async function withCollections(
  trx: Tx,
  storeId: string,
  lines: FileLine[],
  read: ReadLine[],
  options: ImportLineOptions,
  settings: ImportJobSettings,
) {
  const given = collectionsHandler(settings);
  for (const [index, line] of lines.entries()) {
    const parsed = read[index];
    if (!isCsvLine(line) || !line.collections?.length || !isParsed(parsed) || !given) continue;
    try {
      read[index] = await joinCollections(trx, storeId, parsed, line.collections, given, options);
    } catch (error) {
      const appError = toAppError(error as Parameters<typeof toAppError>[0]);
      if (appError.status === 503) throw error;
      const source = line.sources.get('selectedCollections');
      read[index] = { ...errorRow(line, appError), ...(source ? { line: source.line, column: source.column } : {}) };
    }
  }
}

/** The checked market prices of the lines that have them (by index); a line with a bad cell becomes its error row. */
async function checkMarkets(trx: Tx, storeId: string, lines: FileLine[], read: ReadLine[], options: ImportLineOptions) {
  const items = new Map<number, Awaited<ReturnType<typeof checkMarketPrices>>>();
  for (const [index, line] of lines.entries()) {
    if (!isCsvLine(line) || !line.marketPrices?.length || !isParsed(read[index])) continue;
    const checked = await checkMarketPrices(trx, storeId, line.marketPrices, options);
    if (Array.isArray(checked)) items.set(index, checked);
    else read[index] = { ...errorRow(line, checked.error), line: checked.cell.line, column: checked.cell.column };
  }
  return items as Map<number, Exclude<Awaited<ReturnType<typeof checkMarketPrices>>, { error: unknown }>>;
}

/** A written product line's market prices set in their lists: the line's outcome, or its error row. */
async function withMarketPrices(
  trx: Tx,
  storeId: string,
  line: FileLine,
  read: ReadLine,
  written: ImportBatchResult | JobErrorInput,
  items: Awaited<ReturnType<typeof checkMarketPrices>> | undefined,
  options: ImportLineOptions,
) {
  if (typeof written !== 'string' || !items || !Array.isArray(items) || !isParsed(read)) return written;
  const handle = String((read.value as { handle?: unknown }).handle ?? '');
  const error = await applyMarketPrices(trx, storeId, handle, items, options);
  return error ? errorRow(line, error) : written;
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
  options: ImportLineOptions,
  settings: ImportJobSettings,
): Promise<ImportBatchResult[]> {
  const results: ImportBatchResult[] = lines.map(() => null);
  const parsed = read.flatMap((lineRead, index) => (isParsed(lineRead) ? [{ index, line: lines[index].line, ...lineRead }] : []));
  if (parsed.length === 0) return results;
  const point = await setSavepoint(trx, 'import_batch', [options.afterWork]);
  try {
    const applied = await batch(trx, storeId, parsed, options);
    await point.release();
    parsed.forEach(({ index }, i) => {
      results[index] = applied[i] ?? null;
    });
    return results;
  } catch (error) {
    // The database going away (or a deadlock) is the batch's failure: the whole batch is retried.
    if (toAppError(error as Parameters<typeof toAppError>[0]).status === 503) throw error;
    await point.rollBack();
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
  options: ImportLineOptions,
  settings: ImportJobSettings,
  createdLocations: string[],
) {
  const point = await setSavepoint(trx, 'import_line', [options.afterWork]);
  const created: string[] = [];
  try {
    const outcome = await handler(trx, storeId, parsed.value, parsed.text, { ...options, locationCreated: (name) => created.push(name) });
    await point.release();
    createdLocations.push(...created);
    return outcome;
  } catch (error) {
    const appError = toAppError(error as Parameters<typeof toAppError>[0]);
    // The database going away (or a deadlock) is the batch's failure, not the line's: the batch is retried.
    if (appError.status === 503) throw error;
    await point.rollBack();
    if (appError.status >= 500) settings.log.error({ err: error, line: line.line }, 'import line failed with an internal error');
    return errorRow(line, appError);
  }
}

/**
 * The warning rows of an applied line (a refused one changed nothing): each a row of its record, numbered
 * after the rows of that record (a record may have several: its handle and its SKU).
 */
function warningRows(line: FileLine): JobErrorInput[] {
  if (!isCsvLine(line) || !line.warnings) return [];
  const perRecord = new Map<number, number>();
  return line.warnings.map((warning) => {
    const seq = (perRecord.get(warning.line) ?? 0) + 1;
    perRecord.set(warning.line, seq);
    const details = [{ field: warning.field, in: 'body', message: warning.message }];
    return { line: warning.line, level: 'warning', seq, code: warning.code, message: warning.message, details, column: warning.column };
  });
}

function errorRow(line: FileLine, error: AppError): JobErrorInput {
  const row = { line: line.line, code: error.code, message: error.message, details: error.details, source: sourceOf(line) };
  return isCsvLine(line) ? { ...row, ...(line.at ?? cellOf(line, error)) } : row;
}

/** The CSV cell an error names: the source of its first detail's field (or of the nearest parent path). */
function cellOf(line: CsvLine, error: AppError): { line: number; column: string | null } {
  for (let path = error.details[0]?.field ?? ''; path !== ''; path = path.replace(/(\.[^.[\]]*|\[\d+\])$/, '')) {
    const source = line.sources.get(path);
    if (source) return { line: source.line, column: source.column };
    if (!/(\.[^.[\]]*|\[\d+\])$/.test(path)) break;
  }
  return { line: line.line, column: null };
}
