import { type Static, Type } from '@sinclair/typebox';
import type { JobStatus } from '../db/index.js';
import { ListQuery } from '../reads/index.js';
import { CreatedAt, Described, Envelope, ListEnvelope, Nullable, RecordId, StringEnum, Timestamp } from '../shared/index.js';

/** Every value jobs.status may hold (its CHECK, migrations/0015_jobs.sql); the column's type is JobStatus. */
export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const satisfies readonly JobStatus[];

/** The character encodings an import file is read in (a CSV's: src/imports/csv-encoding.ts; NDJSON is UTF-8). */
export const IMPORT_ENCODINGS = ['utf-8', 'windows-1252', 'iso-8859-1'] as const;
export type ImportEncoding = (typeof IMPORT_ENCODINGS)[number];
export const isImportEncoding = (value: unknown): value is ImportEncoding => (IMPORT_ENCODINGS as readonly unknown[]).includes(value);

/** Every value job_errors.level may hold (its CHECK, migrations/0110_job_warnings.sql). */
export const JOB_ERROR_LEVELS = ['error', 'warning'] as const;

export const Job = Type.Object(
  {
    id: RecordId,
    type: Type.String({ description: 'what the job does: "import"' }),
    resource: Type.String({ description: 'the resource it works on: products, collections, customers, orders, inventory' }),
    status: StringEnum(JOB_STATUSES, {
      description: '`queued`, `running`, then `succeeded`, `failed` or `cancelled`',
    }),
    total: Nullable(Type.Integer({ description: 'lines to process (non-blank lines of the file)' })),
    processed: Type.Integer({ description: 'lines handled so far' }),
    created: Type.Integer({ description: 'records created so far' }),
    updated: Type.Integer({ description: 'records updated so far' }),
    failed: Type.Integer({ description: 'lines refused so far (listed by GET /jobs/{id}/errors)' }),
    encoding: StringEnum(IMPORT_ENCODINGS, {
      description:
        "how the file's bytes are read: `utf-8`, or a CSV's `windows-1252` (not valid UTF-8, or so named) or `iso-8859-1` (named by the upload's charset)",
    }),
    warnings: Type.Integer({
      description:
        'values the import changed or made up so far (a handle made a slug, a SKU the file did not give, a value trimmed): rows of GET /jobs/{id}/errors with level "warning"',
    }),
    createdLocations: Type.Array(Type.String(), {
      description:
        'an inventory import: the names of the locations it created because the file named them and the store had none of that name (a dry run: those it would create); [] otherwise',
    }),
    createdAt: CreatedAt,
    startedAt: Nullable(Described(Timestamp, 'when a worker started it; null: still queued')),
    finishedAt: Nullable(Described(Timestamp, 'when it ended; null: not yet')),
  },
  { title: 'Job', description: 'a background job (an import) and its progress' },
);
export type Job = Static<typeof Job>;

export const JobError = Type.Object(
  {
    line: Type.Integer({
      description: 'the line of the file, counted from 1 (blank lines count); in a CSV file the record, the header row being 1',
    }),
    column: Nullable(Type.String({ description: 'a CSV file: the header of the offending cell; null otherwise' })),
    level: StringEnum(JOB_ERROR_LEVELS, {
      description: '`error`: the line was refused; `warning`: the line was applied, with a value changed or made up (the code says which)',
    }),
    code: Type.String({
      description: 'an error: the error code the API gives for the same body; a warning: VALUE_CHANGED, VALUE_GENERATED or VALUE_TRIMMED',
    }),
    message: Type.String({ description: 'what is wrong, in English' }),
    details: Type.Array(
      Type.Object({
        field: Type.String({ description: 'the field, as `variants[0].price`' }),
        in: Type.String({ description: 'where the field was: "body" (the line)' }),
        message: Type.String({ description: 'what is wrong with it' }),
      }),
      { description: 'one entry per field at fault, as the API gives them' },
    ),
  },
  { title: 'JobError', description: 'one line of the file the job refused, or one value it changed or made up (a warning)' },
);
export type JobError = Static<typeof JobError>;

export const JOB_SORTS = ['createdAt'] as const;
export const JobListQuery = ListQuery(JOB_SORTS, {
  status: Type.Optional(StringEnum(JOB_STATUSES, { description: `only jobs in this state: ${JOB_STATUSES.join(', ')}` })),
  resource: Type.Optional(
    Type.String({ maxLength: 64, description: 'only jobs on this resource: products, collections, customers, orders' }),
  ),
});
export type JobListQuery = Static<typeof JobListQuery>;

/** Errors are listed in line order: page (or cursor) and limit only. */
export const JobErrorsQuery = Type.Pick(ListQuery(JOB_SORTS), ['page', 'limit', 'cursor']);
export type JobErrorsQuery = Static<typeof JobErrorsQuery>;

export const JobEnvelope = Envelope(Job);
export const JobListEnvelope = ListEnvelope(Job);
export const JobErrorListEnvelope = ListEnvelope(JobError);
